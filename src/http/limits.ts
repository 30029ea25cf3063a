/** Sizes the HTTP layer accepts; beyond them the request is refused with the envelope. */
export const MAX_URL_BYTES = 8192; // 414 beyond
export const MAX_HEADER_BYTES = 16384; // request line and headers together (Node's default); 431 beyond
export const MAX_PARAM_LENGTH = 100; // one path parameter, decoded (ids are 36 characters at most); 400 beyond
/** Levels a field's value may nest (the value itself is level 1); 400 beyond, checked before the body is parsed. */
export const MAX_JSON_DEPTH = 32;
/**
 * Values (array elements and object members) a JSON body may hold in all, but a readings body; 400
 * beyond, checked before the body is parsed. The largest request of the contract, the energy sums
 * of 10,000 meters, holds some 10,005.
 */
export const MAX_JSON_VALUES = 20_000;
