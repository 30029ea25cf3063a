import type { Tier } from './charges.ts';

interface TierShare {
  tier: Tier;
  micro: number;
}

/**
 * Splits `micro` of energy over the tiers, given the month's cumulative energy before it.
 * The last tier is unbounded, so everything is placed.
 */
export function fillTiers(tiers: Tier[], cumulativeMicro: number, micro: number): TierShare[] {
  const shares: TierShare[] = [];
  let position = cumulativeMicro;
  let remaining = micro;
  for (const tier of tiers) {
    if (remaining <= 0) break;
    if (position >= tier.upperMicro) continue;
    const taken = Math.min(remaining, tier.upperMicro - position);
    shares.push({ tier, micro: taken });
    position += taken;
    remaining -= taken;
  }
  return shares;
}
