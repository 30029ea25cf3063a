import type { Readable } from 'node:stream';

const LF = 10;
const CR = 13;

/**
 * Lines of a file as ranges of its bytes: line k is bytes[bounds[2k], bounds[2k + 1]), without
 * its end. The caller reads them in place, and decodes only what it needs as text.
 */
export interface LineRanges {
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

/**
 * The lines of a stream (ended by \n, \r\n or \r; the last one may have no end), a chunk's worth
 * at a time: the caller loops over each chunk's lines synchronously, which costs far less than a
 * promise per line. A line cut across chunks comes whole with the next chunk. \r and \n never
 * occur inside a multi-byte UTF-8 character, so each line's bytes decode on their own.
 */
export async function* linesOf(input: Readable): AsyncGenerator<LineRanges> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of input) {
    const bytes = rest.length > 0 ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
    const bounds: number[] = [];
    rest = bytes.subarray(endedLines(bytes, bounds, false));
    if (bounds.length > 0) yield { bytes, bounds };
  }
  if (rest.length === 0) return;
  const bounds: number[] = [];
  const start = endedLines(rest, bounds, true);
  if (start < rest.length) bounds.push(start, rest.length);
  yield { bytes: rest, bounds };
}
