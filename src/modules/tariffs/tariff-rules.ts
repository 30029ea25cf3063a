import { badRequest, formatIssues } from '../../http/errors.ts';
import type { TariffType } from './tariff-enums.ts';

/** The fields whose combination the contract constrains (extensions §7). */
export interface TariffRuleFields {
  tariff_type: TariffType;
  tou_schedule_id?: number | null | undefined;
  effective_from: string;
  effective_to: string;
}

export interface RuleViolation {
  path: string[];
  message: string;
}

/** What is wrong with a tariff's combination of fields: checked on the create body and on the result of an update. */
export function tariffRuleViolations(tariff: TariffRuleFields): RuleViolation[] {
  const violations: RuleViolation[] = [];
  if (tariff.effective_to < tariff.effective_from) {
    violations.push({ path: ['effective_to'], message: 'Must be on or after effective_from' });
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

export function assertTariffRules(tariff: TariffRuleFields): void {
  const violations = tariffRuleViolations(tariff);
  if (violations.length > 0) throw badRequest(formatIssues(violations, 'body'));
}
