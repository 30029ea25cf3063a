import { monthsBeforeMs } from './calendar.ts';
import { type Charge, chargesByType } from './charges.ts';
import type { DemandPeaks } from './demand.ts';
import type { KvaBasis } from './fixed-charges.ts';
import { Dec, ZERO } from './money.ts';
import type { BillingContext } from './types.ts';

/** UTILISED_CAPACITY looks at the 12 calendar months ending with the billed one. */
const UTILISATION_MONTHS = 12;

interface DemandContext {
  demand: DemandPeaks;
  /** Demand before the period, which counts towards UTILISED_CAPACITY only. */
  earlierDemand: DemandPeaks;
  /** The meter's notified maximum demand; null when it has none. */
  notifiedMaxDemandKva: number | string | null | undefined;
}

/** The kVA of each kVA/month item in a month, by its demand_basis (extensions §11.5). */
export function createKvaBasis({ demand, earlierDemand, notifiedMaxDemandKva }: DemandContext): KvaBasis {
  function nmd(charge: Charge, warn: ((text: string) => void) | undefined): Dec {
    if (notifiedMaxDemandKva !== null && notifiedMaxDemandKva !== undefined) return new Dec(notifiedMaxDemandKva);
    warn?.(
      `${charge.item.item_type_code} (${charge.item.demand_basis}) needs the meter's notified maximum demand, which is missing: counted as 0 kVA`,
    );
    return ZERO;
  }

  return (charge, monthKey, warn) => {
    const periods = charge.item.demand_periods;
    switch (charge.item.demand_basis ?? 'MONTH_MAX') {
      case 'NMD':
        return nmd(charge, warn);
      case 'UTILISED_CAPACITY':
        return Dec.max(
          nmd(charge, warn),
          demand.highestOver(monthKey, UTILISATION_MONTHS, periods),
          earlierDemand.highestOver(monthKey, UTILISATION_MONTHS, periods),
        );
      case 'EXCESS':
        return Dec.max(ZERO, demand.monthMax(monthKey, periods).minus(nmd(charge, warn)));
      default:
        return demand.monthMax(monthKey, periods);
    }
  };
}

/**
 * Where the readings a UTILISED_CAPACITY item looks back over begin (the first day of the 11th local
 * month before start's), or null when the tariff has no such item.
 */
export function utilisationWindowStart({ tariff, start }: BillingContext): Date | null {
  const looksBack = [...chargesByType(tariff.items).values()]
    .flat()
    .some((charge) => charge.basis === 'PER_KVA_MONTH' && charge.item.demand_basis === 'UTILISED_CAPACITY');
  return looksBack ? new Date(monthsBeforeMs(tariff.timezone, start.getTime(), UTILISATION_MONTHS - 1)) : null;
}
