import { errorCodes } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { badRequest } from './errors.ts';
import { MAX_JSON_DEPTH } from './limits.ts';
import type { App } from './types.ts';

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

/**
 * The field of a JSON text whose value nests deeper than `maxDepth` levels, counted as the
 * contract counts a field's value (the value itself is level 1; the body that holds the fields is
 * not a level): the top-level key or array index, `body` when the body itself is too deep for
 * either, or undefined when nothing is too deep. One pass over the text, strings skipped whole; it
 * does not validate (JSON.parse does, after it), so a malformed text is at worst counted oddly.
 */
export function fieldNestedTooDeep(text: string, maxDepth: number): string | undefined {
  let depth = 0;
  let topIsArray = false;
  let index = 0;
  let keyStart = -1;
  let keyEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = endOfString(text, i);
      if (depth === 1 && !topIsArray) [keyStart, keyEnd] = [i, end];
      i = end - 1;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === 0) topIsArray = c === OPEN_ARRAY;
      if (++depth > maxDepth + 1) return fieldName(text, topIsArray, index, keyStart, keyEnd);
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    } else if (c === COMMA && depth === 1) {
      index++;
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

/** Fastify's own rules for JSON bodies: `__proto__` and `constructor` keys are refused. */
const POISONING = { protoAction: 'error', constructorAction: 'error' } as const;

/**
 * A JSON body's text as the API parses every body. It is checked for nesting first: JSON.parse of a
 * text nested millions deep holds the event loop for seconds, a pass over its characters stops at
 * the 34th bracket. A field nested deeper than MAX_JSON_DEPTH levels is 400, as a parsed one would
 * be. Then it is parsed as Fastify's default parser does, with its errors (answered by the error
 * handler): an empty body, malformed JSON or a poisoning key.
 */
export function parseJsonBody(text: string): unknown {
  const field = fieldNestedTooDeep(text, MAX_JSON_DEPTH);
  if (field !== undefined) throw badRequest(`${field}: Must not be nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (text.length === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  try {
    return secureJsonParse.parse(text, POISONING);
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
}

/** JSON bodies are parsed by parseJsonBody. */
export function registerJsonBodyParser(app: App): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
