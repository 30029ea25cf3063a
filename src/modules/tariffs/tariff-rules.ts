import type { z } from 'zod';
import { PG_ERROR } from '../../db/postgres-errors.ts';
import { conflictOn } from '../../http/database-conflicts.ts';
import { badRequest, formatIssues } from '../../http/errors.ts';
import type { TariffType } from './tariff-enums.ts';

// The rules of the contract on a tariff's fields, its tiers and its schedule (extensions §7): the
// schemas check them on what a client sends, the services on what a change leaves.

export interface RuleViolation {
  path: string[];
  message: string;
}

/** Reports the violations as issues of the value a zod refinement checks. */
function addIssues(ctx: z.RefinementCtx, violations: readonly RuleViolation[]): void {
  for (const violation of violations) ctx.addIssue({ code: 'custom', ...violation });
}

/** The fields whose combination the contract constrains. */
interface TariffRuleFields {
  tariff_type: TariffType;
  tou_schedule_id?: number | null | undefined;
  effective_from: string;
  effective_to: string;
  min_nmd_kva?: number | null | undefined;
  max_nmd_kva?: number | null | undefined;
}

/** What is wrong with a tariff's combination of fields. */
function tariffRuleViolations(tariff: TariffRuleFields): RuleViolation[] {
  const violations: RuleViolation[] = [];
  if (tariff.effective_to < tariff.effective_from) {
    violations.push({ path: ['effective_to'], message: 'Must be on or after effective_from' });
  }
  const { min_nmd_kva: min, max_nmd_kva: max } = tariff;
  if (typeof min === 'number' && typeof max === 'number' && min > max) {
    violations.push({ path: ['max_nmd_kva'], message: 'Must be at least min_nmd_kva' });
  }
  const hasSchedule = tariff.tou_schedule_id !== null && tariff.tou_schedule_id !== undefined;
  if (tariff.tariff_type === 'TIME_OF_USE' && !hasSchedule) {
    violations.push({ path: ['tou_schedule_id'], message: 'Required for a TIME_OF_USE tariff' });
  }
  if (tariff.tariff_type !== 'TIME_OF_USE' && hasSchedule) {
    violations.push({ path: ['tou_schedule_id'], message: 'Only a TIME_OF_USE tariff may have a schedule' });
  }
  return violations;
}

/** The refinement of a create body. */
export const checkTariffRules = (tariff: TariffRuleFields, ctx: z.RefinementCtx) =>
  addIssues(ctx, tariffRuleViolations(tariff));

/** 400 when the tariff an update leaves breaks the rules. */
export function assertTariffRules(tariff: TariffRuleFields): void {
  const violations = tariffRuleViolations(tariff);
  if (violations.length > 0) throw badRequest(formatIssues(violations, 'body'));
}

interface Tier {
  block_index: number;
  upper_limit?: number | null | undefined;
}

/**
 * A set of tiers is consistent when block_index is unique, upper_limit increases strictly with
 * block_index and only the last tier is unbounded (null). Paths name the tier's position in the given list.
 */
function tierViolations(tiers: readonly Tier[]): RuleViolation[] {
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

/** The refinement of a whole tier set. */
export const checkTierRules = (tiers: readonly Tier[], ctx: z.RefinementCtx) => addIssues(ctx, tierViolations(tiers));

/** 400 when the tiers a change to one of them leaves are inconsistent; paths name the changed tier's fields. */
export function assertTierRules(tiers: readonly Tier[]): void {
  const violations = tierViolations(tiers);
  if (violations.length > 0) {
    throw badRequest(
      formatIssues(
        violations.map((v) => ({ ...v, path: v.path.slice(1) })),
        'body',
      ),
    );
  }
}

/** The schedule a TIME_OF_USE tariff without one uses (the contract's schedule 3). */
const DEFAULT_SCHEDULE_ID = 3;

/** The time-of-use schedule that prices the tariff: null for a tariff that is not TIME_OF_USE. */
export function touScheduleId(tariff: { tariff_type: TariffType; tou_schedule_id: number | null }): number | null {
  if (tariff.tariff_type !== 'TIME_OF_USE') return null;
  return tariff.tou_schedule_id ?? DEFAULT_SCHEDULE_ID;
}

/** Why an item of a tariff of another type may not have demand_periods (a rule of items and of tariff types). */
export const DEMAND_PERIODS_NEED_TIME_OF_USE = 'Only the items of a TIME_OF_USE tariff may have demand_periods';

/**
 * 409: the database's constraint keeps two live versions of one family of one owner from sharing a
 * day. Two writes that each move a version onto the other's new dates wait for each other's check,
 * and PostgreSQL ends one as a deadlock: that one overlaps the other's version too.
 */
export const overlappingVersions = <T>(write: Promise<T>) =>
  conflictOn(
    conflictOn(write, PG_ERROR.EXCLUSION_VIOLATION, OVERLAPPING_VERSIONS),
    PG_ERROR.DEADLOCK_DETECTED,
    OVERLAPPING_VERSIONS,
  );

export const OVERLAPPING_VERSIONS = 'Another version of the tariff family has effective dates that overlap these';
