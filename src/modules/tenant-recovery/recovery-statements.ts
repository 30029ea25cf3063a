import { type BillLineCells, billLineCells, type CsvValue, toCsv } from '../../lib/csv.ts';

/** What a statement shows of a tenant (a tenant of the recovery's answer). */
interface StatementTenant {
  name: string;
  meter_sn: string | null;
  import_kwh: number;
  lines: (BillLineCells & { item_type_code: string })[];
  subtotal: number | null;
  tax: number | null;
  total: number | null;
  priced: boolean;
  reason: string | null;
}

const HEADER = [
  'tenant',
  'start',
  'end',
  'meter_sn',
  'charge',
  'season',
  'tou_period',
  'tier',
  'quantity',
  'unit',
  'unit_price',
  'amount',
];

/**
 * The tenants' statements as one CSV table (extensions §13.3): per tenant a row per line of its
 * bill (its charge, season, time-of-use period and tier from 1), then its subtotal, VAT and total;
 * an unpriced tenant one row with its kWh (kL of water) and the reason. UTF-8 with a byte order
 * mark, which spreadsheets read as UTF-8.
 */
export function statementsCsv(
  recovery: { start: string; end: string; unit: string },
  tenants: readonly StatementTenant[],
): string {
  const rows = tenants.flatMap((tenant) => {
    const row = (charge: string, values: CsvValue[]): CsvValue[] => [
      tenant.name,
      recovery.start,
      recovery.end,
      tenant.meter_sn,
      charge,
      ...values,
    ];
    if (!tenant.priced)
      return [row(`Not priced: ${tenant.reason}`, [null, null, null, tenant.import_kwh, recovery.unit, null, null])];
    const total = (name: string, amount: number | null) => row(name, [null, null, null, null, null, null, amount]);
    return [
      ...tenant.lines.map((line) => row(line.item_type_code, billLineCells(line))),
      total('Subtotal', tenant.subtotal),
      total('VAT', tenant.tax),
      total('Total', tenant.total),
    ];
  });
  return `\uFEFF${toCsv(HEADER, rows)}`;
}
