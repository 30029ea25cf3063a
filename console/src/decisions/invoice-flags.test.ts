import { describe, expect, it } from 'vitest';
import { addCents, parseAmount } from './invoice-flags.ts';

describe('amounts typed on an invoice', () => {
  it('reads a dot or a comma as the decimal mark, and spaces between thousands', () => {
    expect(['9435.75', '9435,75', '9 435,75', '9\u00a0435.75', '-50', '12'].map(parseAmount)).toEqual([
      9435.75, 9435.75, 9435.75, 9435.75, -50, 12,
    ]);
  });

  it('refuses anything else', () => {
    expect(['', 'R 12', '1.2.3', '12,5,0', 'abc'].map(parseAmount)).toEqual(Array(5).fill(Number.NaN));
  });

  it('adds amounts to the cent', () => {
    expect(addCents([0.1, 0.2])).toBe(0.3);
    expect(addCents([9435.75, 101.37, 50])).toBe(9587.12);
  });
});
