import { billLineCells, type CsvValue } from '../../../src/lib/csv.ts';
import type { MonthCost } from '../adapters/monthly-cost.ts';
import { SOURCE_LABELS } from '../lib/labels.ts';

/** A building's bills as a CSV table: one line per charge of each month, then the month's subtotal, tax and total. */

export const BILL_CSV_HEADER = [
  'month',
  'source',
  'meter_sn',
  'tariff',
  'charge',
  'item_type_code',
  'season',
  'period',
  'tier',
  'quantity',
  'unit',
  'unit_price',
  'amount',
  'currency',
];

export function billCsvRows(
  months: MonthCost[],
  tariffName: (id: number) => string,
  chargeName: (code: string) => string,
): CsvValue[][] {
  return months.flatMap((month) =>
    month.sources.flatMap((source) =>
      source.bills.flatMap((bill) => {
        const head = [month.month, SOURCE_LABELS[source.source], bill.meter_sn, tariffName(bill.tariff_id)];
        const total = (name: string, amount: number) => [
          ...head,
          name,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          amount,
          bill.currency,
        ];
        return [
          ...bill.lines.map((line) => [
            ...head,
            chargeName(line.item_type_code),
            line.item_type_code,
            ...billLineCells(line),
            bill.currency,
          ]),
          total('Subtotal', bill.subtotal),
          total('Tax', bill.tax),
          total('Total', bill.total),
        ];
      }),
    ),
  );
}
