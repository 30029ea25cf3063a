import type { RuleViolation } from '../tariffs/tariff-rules.ts';

interface Tier {
  block_index: number;
  upper_limit?: number | null | undefined;
}

/**
 * A set of tiers is consistent when block_index is unique, upper_limit increases strictly with
 * block_index and only the last tier is unbounded (null). Paths name the tier's position in the given list.
 */
export function tierViolations(tiers: readonly Tier[]): RuleViolation[] {
  const ordered = tiers
    .map((tier, position) => ({ tier, position }))
    .sort((a, b) => a.tier.block_index - b.tier.block_index);
  const violations: RuleViolation[] = [];
  ordered.forEach(({ tier, position }, rank) => {
    const before = ordered[rank - 1];
    if (!before) return;
    const previous = before.tier;
    if (tier.block_index === previous.block_index) {
      violations.push({
        path: [String(position), 'block_index'],
        message: `Duplicate block_index ${tier.block_index}`,
      });
    } else if (previous.upper_limit === null || previous.upper_limit === undefined) {
      violations.push({
        path: [String(before.position), 'upper_limit'],
        message: 'Only the last tier may have no upper_limit',
      });
    } else if (
      tier.upper_limit !== null &&
      tier.upper_limit !== undefined &&
      tier.upper_limit <= previous.upper_limit
    ) {
      violations.push({ path: [String(position), 'upper_limit'], message: 'Must increase strictly with block_index' });
    }
  });
  return violations;
}
