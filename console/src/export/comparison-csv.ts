import type { CsvValue } from '../../../src/lib/csv.ts';
import type { TariffComparison } from '../api/models.ts';

/**
 * A tariff comparison as a CSV table: the current bills first (rank empty), then each candidate in
 * its rank, with its total, its difference from now and a column per month.
 */
export function comparisonCsv(comparison: TariffComparison): { header: string[]; rows: CsvValue[][] } {
  const months = comparison.current.months.map((m) => m.month);
  const byMonth = (list: { month: string; total: number | null }[]) =>
    months.map((month) => list.find((m) => m.month === month)?.total ?? null);
  return {
    header: [
      'rank',
      'tariff_id',
      'tariff',
      'catalogue',
      'currency',
      'total',
      'difference',
      'complete',
      'warnings',
      ...months,
    ],
    rows: [
      [
        null,
        null,
        'Current tariffs',
        null,
        comparison.currency,
        comparison.current.total,
        0,
        comparison.current.complete,
        comparison.current.warnings.join('; '),
        ...byMonth(comparison.current.months),
      ],
      ...comparison.candidates.map((c, i) => [
        c.total === null ? null : i + 1,
        c.tariff_id,
        c.name,
        c.catalogue,
        c.currency,
        c.total,
        c.difference,
        c.complete,
        c.warnings.join('; '),
        ...byMonth(c.months),
      ]),
    ],
  };
}
