import { localDate } from '../../lib/local-dates.ts';

/** What decides whether a building may take a tariff (extensions §13.1). */
export interface Supply {
  /** The building's building_type: its customer class. */
  customerClass: string;
  /** The NMD the comparison uses (kVA); null when it could not be told. */
  nmdKva: number | null;
  /** The current tariff's DSO; null when it has none (then every DSO's tariffs may be taken). */
  dsoId: number | null;
  /** The period's end: its last day is the local date of the instant before, in each tariff's zone. */
  end: Date;
  /** The current bill's currency; null when it is not priced. */
  currency: string | null;
}

/** What eligibility reads of a tariff. */
export interface EligibilityFields {
  meter_type: string;
  currency: string;
  effective_from: string;
  effective_to: string;
  timezone: string;
  customer_classes: string[] | null;
  min_nmd_kva: number | null;
  max_nmd_kva: number | null;
  dso_id: number | null;
  dso: { name: string } | null;
}

/** Why the supply may not take the tariff; none when it may. */
export function ineligibility(tariff: EligibilityFields, supply: Supply): string[] {
  const reasons: string[] = [];
  if (tariff.meter_type !== 'ELECTRICITY') reasons.push(`not an electricity tariff (${tariff.meter_type})`);
  if (supply.currency !== null && tariff.currency !== supply.currency) {
    reasons.push(`priced in ${tariff.currency}, the bill in ${supply.currency}`);
  }
  if (tariff.customer_classes !== null && !tariff.customer_classes.includes(supply.customerClass)) {
    reasons.push(`not for ${supply.customerClass} supplies`);
  }
  const nmd = supply.nmdKva;
  if (nmd !== null && tariff.min_nmd_kva !== null && nmd < tariff.min_nmd_kva) {
    reasons.push(`NMD ${nmd} kVA below the minimum ${tariff.min_nmd_kva} kVA`);
  }
  if (nmd !== null && tariff.max_nmd_kva !== null && nmd > tariff.max_nmd_kva) {
    reasons.push(`NMD ${nmd} kVA above the maximum ${tariff.max_nmd_kva} kVA`);
  }
  const lastDay = localDate(tariff.timezone, supply.end.getTime() - 1);
  if (tariff.effective_from > lastDay || tariff.effective_to < lastDay) reasons.push(`not in force on ${lastDay}`);
  if (supply.dsoId !== null && tariff.dso_id !== null && tariff.dso_id !== supply.dsoId) {
    reasons.push(`another supplier's area (${tariff.dso?.name ?? `DSO ${tariff.dso_id}`})`);
  }
  return reasons;
}
