import type { Readable } from 'node:stream';

const LF = 10;
const CR = 13;

/**
 * Lines of a file as ranges of its bytes: line k is bytes[bounds[2k], bounds[2k + 1]), without
 * its end. The caller reads them in place, and decodes only what it needs as text.
 */
interface LineRanges {
  bytes: Buffer;
  bounds: number[];
}

/**
 * Adds to bounds the lines of bytes ended by \n, \r\n or \r, and returns where the rest (a line
 * without its end yet) starts. A \r as the last byte may be the first half of a \r\n: unless
 * this is the end of the file, it is left in the rest.
 */
function endedLines(bytes: Buffer, bounds: number[], atEnd: boolean): number {
  let start = 0;
  if (bytes.indexOf(CR) < 0) {
    for (let end = bytes.indexOf(LF); end >= 0; end = bytes.indexOf(LF, start)) {
      bounds.push(start, end);
      start = end + 1;
    }
    return start;
  }
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === LF) {
      bounds.push(start, i);
      start = i + 1;
    } else if (byte === CR) {
      if (i === bytes.length - 1 && !atEnd) break;
      bounds.push(start, i);
      if (bytes[i + 1] === LF) i++;
      start = i + 1;
    }
  }
  return start;
}

/** The longest line read, without its end: a line of readings is under 200 bytes. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** A line longer than the limit, named by its number (1 = the first line), never quoted. */
export class LineTooLongError extends Error {
  constructor(
    readonly line: number,
    maxLineBytes: number,
  ) {
    super(`line ${line}: longer than ${maxLineBytes} bytes`);
    this.name = 'LineTooLongError';
  }
}

/** The index in bounds of the first line longer than maxLineBytes, -1 if none. */
function firstTooLong(bounds: readonly number[], maxLineBytes: number): number {
  for (let k = 0; k < bounds.length; k += 2) if (bounds[k + 1]! - bounds[k]! > maxLineBytes) return k;
  return -1;
}

/**
 * The lines of a stream (ended by \n, \r\n or \r; the last one may have no end), a chunk's worth
 * at a time: the caller loops over each chunk's lines synchronously, which costs far less than a
 * promise per line. A line cut across chunks comes whole with the chunk that ends it: the chunks
 * of its start are kept aside and joined once, so each byte is copied at most twice. \r and \n
 * never occur inside a multi-byte UTF-8 character, so each line's bytes decode on their own.
 * A line longer than maxLineBytes (its end excluded) throws a LineTooLongError after the lines
 * before it, as soon as that many of its bytes are read: an endless stream without a line end
 * stops there.
 */
export async function* linesOf(input: Readable, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<LineRanges> {
  // The start of a line not ended yet, in chunks, and its length.
  let rest: Buffer[] = [];
  let restLength = 0;
  let linesBefore = 0;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    const endsALine = chunk.indexOf(LF) >= 0 || chunk.indexOf(CR) >= 0 || rest.at(-1)?.at(-1) === CR;
    if (!endsALine) {
      rest.push(chunk);
      restLength += chunk.length;
      if (restLength > maxLineBytes) throw new LineTooLongError(linesBefore + 1, maxLineBytes);
      continue;
    }
    const bytes = rest.length > 0 ? Buffer.concat([...rest, chunk], restLength + chunk.length) : chunk;
    const bounds: number[] = [];
    const restStart = endedLines(bytes, bounds, false);
    const tooLong = firstTooLong(bounds, maxLineBytes);
    if (tooLong >= 0) {
      if (tooLong > 0) yield { bytes, bounds: bounds.slice(0, tooLong) };
      throw new LineTooLongError(linesBefore + tooLong / 2 + 1, maxLineBytes);
    }
    if (bounds.length > 0) yield { bytes, bounds };
    linesBefore += bounds.length / 2;
    rest = restStart < bytes.length ? [bytes.subarray(restStart)] : [];
    restLength = bytes.length - restStart;
    // A \r kept as the possible first half of a \r\n already ends the line before it.
    const heldEnd = bytes.at(-1) === CR ? 1 : 0;
    if (restLength - heldEnd > maxLineBytes) throw new LineTooLongError(linesBefore + 1, maxLineBytes);
  }
  if (restLength === 0) return;
  const last = rest.length === 1 ? rest[0]! : Buffer.concat(rest, restLength);
  const bounds: number[] = [];
  const start = endedLines(last, bounds, true);
  if (start < last.length) bounds.push(start, last.length);
  yield { bytes: last, bounds };
}
