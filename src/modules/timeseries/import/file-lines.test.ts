import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { linesOf } from './file-lines.ts';

async function lines(chunks: (string | Buffer)[]): Promise<string[]> {
  const all: string[] = [];
  for await (const { bytes, bounds } of linesOf(Readable.from(chunks.map((c) => Buffer.from(c))))) {
    for (let k = 0; k < bounds.length; k += 2) all.push(bytes.toString('utf8', bounds[k], bounds[k + 1]));
  }
  return all;
}

describe('linesOf', () => {
  it('splits on \\n, \\r\\n and \\r, keeping a last line without an end', async () => {
    expect(await lines(['a,1\nb,2\r\nc,3\rd,4'])).toEqual(['a,1', 'b,2', 'c,3', 'd,4']);
    expect(await lines(['a,1\r\r\nb,2\r'])).toEqual(['a,1', '', 'b,2']);
  });

  it('joins lines cut across chunks, including a \\r\\n cut in two', async () => {
    expect(await lines(['head', 'er\nx,1\r', '\ny,2\r', 'z,3\n'])).toEqual(['header', 'x,1', 'y,2', 'z,3']);
  });

  it('keeps empty lines (they count for line numbers) but adds none at the end', async () => {
    expect(await lines(['a\n\nb\n'])).toEqual(['a', '', 'b']);
    expect(await lines(['\n'])).toEqual(['']);
    expect(await lines([])).toEqual([]);
  });

  it('decodes a character whose UTF-8 bytes are cut across chunks', async () => {
    const bytes = Buffer.from('mètre,1\n');
    expect(await lines([bytes.subarray(0, 2), bytes.subarray(2)])).toEqual(['mètre,1']);
  });
});
