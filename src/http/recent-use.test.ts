import { describe, expect, it } from 'vitest';
import { createRecentUse, RECENT_USE_HALF_LIFE_MS } from './recent-use.ts';

describe('recent use', () => {
  it('adds each cost and halves the sum every half-life', () => {
    const clock = { time: 5_000 };
    const use = createRecentUse(() => clock.time);
    expect(use.of('a')).toBe(0);
    use.charge('a', 8);
    use.charge('a', 4);
    expect(use.of('a')).toBe(12);
    clock.time += RECENT_USE_HALF_LIFE_MS;
    expect(use.of('a')).toBe(6);
    use.charge('a', 2);
    clock.time += 2 * RECENT_USE_HALF_LIFE_MS;
    expect(use.of('a')).toBe(2);
    expect(use.of('b')).toBe(0);
  });

  it('raises a use to the least given, never lowers it, and counts a clock set back as no time passed', () => {
    const clock = { time: 5_000 };
    const use = createRecentUse(() => clock.time);
    use.charge('a', 10);
    use.raiseTo('a', 4);
    expect(use.of('a')).toBe(10);
    use.raiseTo('b', 4);
    expect(use.of('b')).toBe(4);
    clock.time -= 60_000;
    expect(use.of('a')).toBe(10);
  });

  it('forgets the users whose use has faded once it remembers many', () => {
    const clock = { time: 0 };
    const use = createRecentUse(() => clock.time);
    for (let i = 0; i < 1024; i++) use.charge(`old-${i}`, 1);
    clock.time += 20 * RECENT_USE_HALF_LIFE_MS;
    use.charge('kept', 3);
    use.charge('new', 1);
    expect(use.of('kept')).toBe(3);
    expect(use.of('old-1')).toBeLessThan(0.01);
  });
});
