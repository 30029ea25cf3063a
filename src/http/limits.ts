/** Sizes the HTTP layer accepts; beyond them the request is refused with the envelope. */
export const MAX_URL_BYTES = 8192; // 414 beyond
export const MAX_HEADER_BYTES = 16384; // request line and headers together (Node's default); 431 beyond
export const MAX_PARAM_LENGTH = 100; // one path parameter, decoded (ids are 36 characters at most); 400 beyond
/**
 * A JSON body longer than this is large: parsed in a worker thread, admitted as work once it has
 * arrived (json-body.ts).
 */
export const LARGE_BODY_BYTES = 64 * 1024;
/** Levels a field's value may nest (the value itself is level 1); 400 beyond, checked before the body is parsed. */
export const MAX_JSON_DEPTH = 32;
/**
 * Values (array elements and object members) a JSON body may hold in all, but a readings body; 400
 * beyond, checked before the body is parsed. The largest request of the contract, the energy sums
 * of 10,000 meters, holds some 10,005.
 */
export const MAX_JSON_VALUES = 20_000;
/**
 * Distinct object keys a JSON body may hold, but a readings body: a key counts once for each
 * different run of keys before it in its object (`{"a":1,"b":2}` and `{"a":1,"c":3}` hold three:
 * a, a.b and a.c), which is what V8 makes a new hidden class of when it parses or copies the body.
 * Each costs the main thread a microsecond or two: 20,000 objects of keys never seen before held
 * it some 40 ms. 400 beyond, checked off the main thread for a body over 64 KiB.
 */
export const MAX_JSON_KEYS = 2_000;
