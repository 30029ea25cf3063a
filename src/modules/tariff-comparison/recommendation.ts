import { Decimal } from 'decimal.js';

interface Ranked {
  tariff_id: number;
  name: string;
  family: string | null;
  eligible: boolean;
  complete: boolean;
  total: number | null;
}

/** Savings worth acting on are more than this share of the current total. */
const LEAST_SAVING = 0.01;

/**
 * The cheapest candidate that is eligible (in force included), complete and priced, when it saves
 * more than 1 % of the current total; otherwise null and why (extensions §13.1). Candidates come
 * cheapest first.
 */
export function recommendationOf(current: { total: number | null; complete: boolean }, candidates: readonly Ranked[]) {
  if (current.total === null || !current.complete) return unrecommended('the current bill is not complete');
  const best = candidates.find((c) => c.eligible && c.complete && c.total !== null);
  if (!best || best.total === null) return unrecommended('no eligible candidate');
  const saving = new Decimal(current.total).minus(best.total);
  if (saving.lte(new Decimal(current.total).times(LEAST_SAVING))) {
    return unrecommended('the current tariff is the cheapest eligible one');
  }
  return {
    recommendation: {
      tariff_id: best.tariff_id,
      name: best.name,
      family: best.family,
      saving: saving.toDecimalPlaces(2).toNumber(),
      saving_pct: saving.div(current.total).times(100).toDecimalPlaces(2).toNumber(),
    },
    recommendation_reason: null,
  };
}

function unrecommended(reason: string) {
  return { recommendation: null, recommendation_reason: reason };
}
