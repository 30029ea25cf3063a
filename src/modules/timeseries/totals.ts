import type { Micro } from './micro-units.ts';

/** The sums of a set of readings as the database adds them: exact integers of micro-units as text. */
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

/** What every query reports of a set of readings; every value rounded to 6 decimals. */
export interface Totals {
  import_kwh: number;
  export_kwh: number;
  net_kwh: number;
  kvarh: number;
  readings: number;
  avg_kw: number;
  max_kw: number;
  avg_kva: number;
  max_kva: number;
}

/**
 * An exact integer sum, as a number when below 1e15 (then the double is exact, and a quotient
 * m / d is off by less than half its distance to the nearest tie, so Math.round rounds it exactly).
 */
function parseMicro(text: string): Micro {
  return text.replace('-', '').length <= 15 ? Number(text) : BigInt(text);
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

export function reportTotals(sums: MicroTotals): Totals {
  const imported = parseMicro(sums.import_uwh);
  const exported = parseMicro(sums.export_uwh);
  return {
    import_kwh: units(imported),
    export_kwh: units(exported),
    net_kwh: units(difference(imported, exported)),
    kvarh: units(parseMicro(sums.uvarh)),
    readings: sums.readings,
    avg_kw: units(parseMicro(sums.sum_power_uw), sums.readings),
    max_kw: rounded(sums.max_power_kw),
    avg_kva: units(parseMicro(sums.sum_uva), sums.readings),
    max_kva: rounded(sums.max_kva),
  };
}
