import { errorCodes, type FastifyRequest } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { type Admission, LARGE_BODIES } from './admission.ts';
import { badRequest } from './errors.ts';
import { LARGE_BODY_BYTES, MAX_JSON_DEPTH, MAX_JSON_KEYS, MAX_JSON_VALUES } from './limits.ts';
import type { App } from './types.ts';
import { createWorkerThread } from './worker-thread.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
/** A key longer than this is not repeated in the error: the body's level names it. */
const MAX_NAMED_KEY = 100;

/** The offset just past the string that opens at `start` (a quote), or the text's length when it never closes. */
function endOfString(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

/** Why a JSON text is refused before it is parsed: the field named, and what is wrong with it. */
export interface ShapeFault {
  field: string;
  message: string;
}

/**
 * What is wrong with the shape of a JSON text, or undefined: a field whose value nests deeper than
 * `maxDepth` levels, counted as the contract counts a field's value (the value itself is level 1;
 * the body that holds the fields is not a level), or more than `maxValues` values in all (array
 * elements and object members: a text with that many commas holds more). The field named is the
 * top-level key or array index where the fault was found, `body` when the body itself is at fault.
 * One pass over the text that stops at the fault, strings skipped whole; it does not validate
 * (JSON.parse does, after it), so a malformed text is at worst counted oddly.
 */
export function shapeFault(text: string, maxDepth: number, maxValues: number): ShapeFault | undefined {
  let depth = 0;
  let topIsArray = false;
  let index = 0;
  let keyStart = -1;
  let keyEnd = -1;
  let commas = 0;
  const fault = (message: string) => ({ field: fieldName(text, topIsArray, index, keyStart, keyEnd), message });
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = endOfString(text, i);
      if (depth === 1 && !topIsArray) [keyStart, keyEnd] = [i, end];
      i = end - 1;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === 0) topIsArray = c === OPEN_ARRAY;
      if (++depth > maxDepth + 1) return fault(`Must not be nested deeper than ${maxDepth} levels`);
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    } else if (c === COMMA) {
      if (++commas >= maxValues) return fault(`Must not hold more than ${maxValues.toLocaleString('en')} values`);
      if (depth === 1) index++;
    }
  }
  return undefined;
}

function fieldName(text: string, topIsArray: boolean, index: number, keyStart: number, keyEnd: number): string {
  if (topIsArray) return String(index);
  if (keyStart === -1 || keyEnd - keyStart > MAX_NAMED_KEY) return 'body';
  try {
    return String(JSON.parse(text.slice(keyStart, keyEnd)));
  } catch {
    return 'body';
  }
}

/**
 * The first top-level field (key or index; `body` for the body itself) past which `value` holds
 * more than `maxKeys` distinct object keys, a key counted once for each different run of keys
 * before it in its object (MAX_JSON_KEYS), or undefined.
 */
export function keysFault(value: unknown, maxKeys: number): ShapeFault | undefined {
  /** The keys met so far, as a tree: each object's keys a path from the root, in order. */
  const root = new Map<string, unknown>();
  let count = 0;
  let field = 'body';
  /** Whether `node` takes the count past maxKeys; `named` hears of each of its own keys or indexes as it is entered. */
  const overflows = (node: unknown, named?: (name: string) => void): boolean => {
    if (Array.isArray(node)) {
      return node.some((item, index) => {
        named?.(String(index));
        return overflows(item);
      });
    }
    if (node === null || typeof node !== 'object') return false;
    let run = root;
    for (const [key, child] of Object.entries(node)) {
      named?.(key.length > MAX_NAMED_KEY ? 'body' : key);
      let next = run.get(key) as Map<string, unknown> | undefined;
      if (!next) {
        if (++count > maxKeys) return true;
        next = new Map();
        run.set(key, next);
      }
      run = next;
      if (overflows(child)) return true;
    }
    return false;
  };
  if (!overflows(value, (name) => (field = name))) return undefined;
  return { field, message: `Must not hold more than ${maxKeys.toLocaleString('en')} distinct object keys` };
}

/** Fastify's own rules for JSON bodies: `__proto__` and `constructor` keys are refused. */
const POISONING = { protoAction: 'error', constructorAction: 'error' } as const;

/** What a JSON body may hold (limits.ts): values and distinct object keys in all. */
export interface JsonBounds {
  values: number;
  keys: number;
}

const BODY_BOUNDS: JsonBounds = { values: MAX_JSON_VALUES, keys: MAX_JSON_KEYS };

/**
 * A JSON body's text as the API parses every body. Its shape is checked first: JSON.parse of a text
 * nested millions deep holds the event loop for seconds, and of 1 MiB of numbers some 25–45 ms,
 * where a pass over its characters stops at the 34th bracket or the `values`th comma. A field
 * nested deeper than MAX_JSON_DEPTH levels is 400, as a parsed one would be, and so is a body of
 * more than `values` values (MAX_JSON_VALUES: more than any request of the contract holds but a
 * readings body, whose parser passes its own). Then it is parsed as Fastify's default parser
 * does, with its errors (answered by the error handler): an empty body, malformed JSON or a
 * poisoning key. Last, a body of more than `keys` distinct object keys (MAX_JSON_KEYS) is 400.
 */
export function parseJsonBody(text: string, bounds: JsonBounds = BODY_BOUNDS): unknown {
  const fault = shapeFault(text, MAX_JSON_DEPTH, bounds.values);
  if (fault) throw badRequest(`${fault.field}: ${fault.message}`);
  if (text.length === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  let value: unknown;
  try {
    value = secureJsonParse.parse(text, POISONING);
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
  const keys = Number.isFinite(bounds.keys) ? keysFault(value, bounds.keys) : undefined;
  if (keys) throw badRequest(`${keys.field}: ${keys.message}`);
  return value;
}

/**
 * JSON bodies are parsed by parseJsonBody: up to LARGE_BODY_BYTES on the main thread, larger ones
 * in a worker thread (json-body-worker.ts), so that the main thread only copies the value back,
 * bounded by MAX_JSON_KEYS in the shapes it makes: JSON.parse of 1 MiB held the main thread 5–40 ms
 * (docs/decisions.md, "Large JSON bodies parsed in a worker thread"). A large body is admitted as
 * work of LARGE_BODIES once it has arrived, never while its client still sends it.
 */
export function registerJsonBodyParser(app: App, admission?: Admission): void {
  const worker = createWorkerThread(new URL('./json-body-worker.ts', import.meta.url), 'JSON body worker');
  app.addHook('onClose', () => worker.close());
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, async (request: FastifyRequest, body: Buffer) => {
    if (body.length <= LARGE_BODY_BYTES) return parseJsonBody(body.toString('utf8'));
    const parse = async () => (await worker.call<{ value: unknown }>({ bytes: new Uint8Array(body) })).value;
    if (!admission) return parse();
    const caller = { userId: request.auth?.userId ?? request.ip, signal: request.deadline };
    return admission.admit(caller, LARGE_BODIES, parse);
  });
}
