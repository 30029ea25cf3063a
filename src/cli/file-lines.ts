import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * The lines of a UTF-8 stream (ended by \n, \r\n or \r), a chunk's worth at a time: the caller
 * loops over each array synchronously, which costs far less than a promise per line.
 */
export async function* linesOf(input: Readable): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of input) {
    let text = rest + decoder.write(chunk as Buffer);
    // A \r at the end may be the first half of a \r\n: it waits for the next chunk.
    const held = text.endsWith('\r') ? '\r' : '';
    if (held) text = text.slice(0, -1);
    const lines = text.includes('\r') ? text.split(/\r\n|\r|\n/) : text.split('\n');
    rest = lines.pop()! + held;
    if (lines.length > 0) yield lines;
  }
  const last = rest + decoder.end();
  const lines = last.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  if (lines.length > 0) yield lines;
}
