import type { Micro } from './micro-units.ts';

/**
 * The measures of a set of readings as the database combines them (rollup-sql.ts): sums are
 * exact integers of micro-units, as text. A query asks only for those it reports.
 */
export interface MicroTotals {
  import_uwh: string;
  export_uwh: string;
  uvarh: string;
  readings: number;
  sum_power_uw: string;
  max_power_kw: number;
  sum_uva: string;
  max_kva: number;
}

export type Measure = keyof MicroTotals;

/** What energy-sum and energy-profile report of a set of readings; every value rounded to 6 decimals. */
export interface EnergyTotals {
  import_kwh: number;
  export_kwh: number;
  net_kwh: number;
  kvarh: number;
  readings: number;
  max_kva: number;
}

/** What power-profile reports of a set of readings; every value rounded to 6 decimals. */
interface PowerTotals {
  avg_kw: number;
  max_kw: number;
  avg_kva: number;
  max_kva: number;
}

const MINUS = 45; // '-'

/**
 * An exact integer sum, as a number when below 1e15 (then the double is exact, and a quotient
 * m / d is off by less than half its distance to the nearest tie, so Math.round rounds it exactly).
 */
function parseMicro(text: string): Micro {
  const digits = text.charCodeAt(0) === MINUS ? text.length - 1 : text.length;
  return digits <= 15 ? Number(text) : BigInt(text);
}

function difference(a: Micro, b: Micro): Micro {
  return typeof a === 'number' && typeof b === 'number' ? a - b : BigInt(a) - BigInt(b);
}

/** micro / count micro-units (1e-9) as units rounded to 6 decimals, half away from zero. */
function units(micro: Micro, count = 1): number {
  if (typeof micro === 'number') return (Math.sign(micro) * Math.round(Math.abs(micro) / (1000 * count))) / 1e6;
  const divisor = 1000n * BigInt(count);
  const magnitude = micro < 0n ? -micro : micro;
  const millionths = (2n * magnitude + divisor) / (2n * divisor);
  return Number(micro < 0n ? -millionths : millionths) / 1e6;
}

/** A stored value rounded to 6 decimals, half up on its exact binary value. */
export function rounded(value: number): number {
  return Number(value.toFixed(6));
}

/** A report: the measures it needs, and how it turns them into its totals. */
export interface Report<T> {
  measures: readonly Measure[];
  totals(row: MicroTotals): T;
}

/** The energies of energy-profile: only the sums (fewer aggregates for many buckets). */
export type EnergyFlows = Pick<EnergyTotals, 'import_kwh' | 'export_kwh' | 'net_kwh' | 'kvarh'>;

/** The energies of exact sums of micro-units. */
export function energyFlows(imported: Micro, exported: Micro, uvarh: Micro): EnergyFlows {
  return {
    import_kwh: units(imported),
    export_kwh: units(exported),
    net_kwh: units(difference(imported, exported)),
    kvarh: units(uvarh),
  };
}

export const ENERGY_FLOWS: Report<EnergyFlows> = {
  measures: ['import_uwh', 'export_uwh', 'uvarh'],
  totals: (row) => energyFlows(parseMicro(row.import_uwh), parseMicro(row.export_uwh), parseMicro(row.uvarh)),
};

export const ENERGY: Report<EnergyTotals> = {
  measures: [...ENERGY_FLOWS.measures, 'readings', 'max_kva'],
  totals(row) {
    return { ...ENERGY_FLOWS.totals(row), readings: row.readings, max_kva: rounded(row.max_kva) };
  },
};

export const POWER: Report<PowerTotals> = {
  measures: ['readings', 'sum_power_uw', 'max_power_kw', 'sum_uva', 'max_kva'],
  totals(row) {
    return {
      avg_kw: units(parseMicro(row.sum_power_uw), row.readings),
      max_kw: rounded(row.max_power_kw),
      avg_kva: units(parseMicro(row.sum_uva), row.readings),
      max_kva: rounded(row.max_kva),
    };
  },
};

/** What volume-sum and volume-profile report of a water meter's readings: their volume, kept where imported kWh are. */
export const VOLUME: Report<{ volume_kl: number }> = {
  measures: ['import_uwh'],
  totals: (row) => ({ volume_kl: units(parseMicro(row.import_uwh)) }),
};
