/** Past this many users remembered, those whose use has faded to almost nothing are forgotten. */
const USERS_REMEMBERED = 1024;
/** How fast a user's recent use fades: halved every this many ms. */
export const RECENT_USE_HALF_LIFE_MS = 1000;
/** Below this a faded use counts as none, and the user may be forgotten. */
const FADED = 0.01;

interface Use {
  value: number;
  at: number;
}

/**
 * Per user, how much their requests have cost lately: each request's cost, halved every
 * RECENT_USE_HALF_LIFE_MS since it was charged. `now` is the clock in ms; one set back counts as
 * no time passed.
 */
export function createRecentUse(now: () => number) {
  const uses = new Map<string, Use>();
  const faded = (use: Use, at: number) => use.value * 2 ** (-Math.max(0, at - use.at) / RECENT_USE_HALF_LIFE_MS);

  function forgetFaded(at: number): void {
    if (uses.size <= USERS_REMEMBERED) return;
    for (const [user, use] of uses) if (faded(use, at) < FADED) uses.delete(user);
  }

  function of(userId: string): number {
    const use = uses.get(userId);
    return use ? faded(use, now()) : 0;
  }

  return {
    of,
    /** Raises the user's use to `least` if below it: one who comes back after a pause has no credit saved up. */
    raiseTo(userId: string, least: number): void {
      if (of(userId) < least) uses.set(userId, { value: least, at: now() });
    },
    charge(userId: string, cost: number): void {
      const at = now();
      const use = uses.get(userId);
      uses.set(userId, { value: (use ? faded(use, at) : 0) + cost, at });
      forgetFaded(at);
    },
  };
}
