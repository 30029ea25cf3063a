import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineTooLongError, linesOf, MAX_LINE_BYTES } from './file-lines.ts';

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

describe('linesOf, on a line over the limit', () => {
  async function readAll(input: Readable, maxLineBytes: number) {
    const all: string[] = [];
    try {
      for await (const { bytes, bounds } of linesOf(input, maxLineBytes)) {
        for (let k = 0; k < bounds.length; k += 2) all.push(bytes.toString('utf8', bounds[k], bounds[k + 1]));
      }
    } catch (error) {
      return { lines: all, error };
    }
    return { lines: all, error: undefined };
  }

  it('gives the lines before it, then refuses it by its number', async () => {
    const { lines, error } = await readAll(
      Readable.from([Buffer.from('a\nb\r\n'), Buffer.from(`${'x'.repeat(11)}\nc\n`)]),
      10,
    );
    expect(lines).toEqual(['a', 'b']);
    expect(error).toBeInstanceOf(LineTooLongError);
    expect((error as LineTooLongError).line).toBe(3);
  });

  it('refuses a long line inside one chunk, and accepts a line of exactly the limit', async () => {
    const ok = await readAll(Readable.from([Buffer.from(`h\n${'y'.repeat(10)}\r\n`)]), 10);
    expect(ok).toEqual({ lines: ['h', 'y'.repeat(10)], error: undefined });
    const { lines, error } = await readAll(Readable.from([Buffer.from(`h\n${'y'.repeat(11)}\nz\n`)]), 10);
    expect(lines).toEqual(['h']);
    expect((error as LineTooLongError).line).toBe(2);
  });

  it('refuses a last line without an end that is over the limit', async () => {
    const { lines, error } = await readAll(
      Readable.from([Buffer.from('h\n'), Buffer.from('z'.repeat(6)), Buffer.from('z'.repeat(6))]),
      10,
    );
    expect(lines).toEqual(['h']);
    expect((error as LineTooLongError).line).toBe(2);
  });

  it('stops reading an endless stream without a line end once it has read just over 1 MB of the line', async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024, 0x41));
      },
    });
    const { lines, error } = await readAll(endless, MAX_LINE_BYTES);
    endless.destroy();
    expect(lines).toEqual([]);
    expect(error).toBeInstanceOf(LineTooLongError);
    expect((error as LineTooLongError).message).toBe('line 1: longer than 1048576 bytes');
    // What the stream had read ahead (its buffer) besides the line's first megabyte.
    expect(produced).toBeLessThan(MAX_LINE_BYTES + 256 * 1024);
  });

  it('joins a line of many small chunks whole, and refuses one more byte', async () => {
    const chunks = Array.from({ length: 1024 }, () => Buffer.alloc(1024, 0x42));
    const whole = await readAll(Readable.from([...chunks, Buffer.from('\nend')]), MAX_LINE_BYTES);
    expect(whole.error).toBeUndefined();
    expect(whole.lines.map((line) => line.length)).toEqual([MAX_LINE_BYTES, 3]);
    const over = await readAll(Readable.from([...chunks, Buffer.from('B\n')]), MAX_LINE_BYTES);
    expect(over.lines).toEqual([]);
    expect((over.error as LineTooLongError).line).toBe(1);
  });
});
