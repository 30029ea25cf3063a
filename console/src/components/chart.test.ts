import { describe, expect, it } from 'vitest';
import { heldSteps } from './chart.tsx';

describe('steps held over their buckets', () => {
  it('gives each bucket a point at its start and a second before its end, so that one before a gap keeps its width', () => {
    expect(
      heldSteps([
        [0, 3600, 7200, 10800],
        [5, 7, null],
        [null, 1, 2],
      ]),
    ).toEqual([
      [0, 3599, 3600, 7199, 7200, 10799],
      [5, 5, 7, 7, null, null],
      [null, null, 1, 1, 2, 2],
    ]);
  });
});
