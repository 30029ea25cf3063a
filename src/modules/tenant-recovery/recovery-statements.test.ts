import { describe, expect, it } from 'vitest';
import type { BillLineCells } from '../../lib/csv.ts';
import { statementsCsv } from './recovery-statements.ts';

const line = (overrides: Partial<BillLineCells & { item_type_code: string }>) => ({
  item_type_code: 'IMPORT_ENERGY',
  season: 'ALL_YEAR',
  period: null,
  block_index: null,
  quantity: 1,
  unit: 'kWh',
  unit_price: 1,
  amount: 1,
  ...overrides,
});

describe('statementsCsv', () => {
  it("names each line's time-of-use period and tier (from 1), and leaves them empty where a line has none", () => {
    const csv = statementsCsv({ start: '2026-10-01', end: '2026-11-01', unit: 'kWh' }, [
      {
        name: 'Shop 1',
        meter_sn: 'SHOP-1',
        import_kwh: 700,
        lines: [
          line({
            item_type_code: 'TOU_PEAK_ENERGY',
            season: 'SUMMER',
            period: 'PEAK',
            quantity: 200,
            unit_price: 3.2928,
            amount: 658.56,
          }),
          line({ quantity: 400, unit_price: 1.5, amount: 600, block_index: 0 }),
          line({ quantity: 100, unit_price: 2, amount: 200, block_index: 1 }),
          line({ item_type_code: 'SERVICE', quantity: 31, unit: 'day', unit_price: 3.27, amount: 101.37 }),
        ],
        subtotal: 1559.93,
        tax: 233.99,
        total: 1793.92,
        priced: true,
        reason: null,
      },
    ]);
    const cells = 'Shop 1,2026-10-01,2026-11-01,SHOP-1';
    expect(csv).toBe(
      [
        '\uFEFFtenant,start,end,meter_sn,charge,season,tou_period,tier,quantity,unit,unit_price,amount',
        `${cells},TOU_PEAK_ENERGY,SUMMER,PEAK,,200,kWh,3.2928,658.56`,
        `${cells},IMPORT_ENERGY,ALL_YEAR,,1,400,kWh,1.5,600`,
        `${cells},IMPORT_ENERGY,ALL_YEAR,,2,100,kWh,2,200`,
        `${cells},SERVICE,ALL_YEAR,,,31,day,3.27,101.37`,
        `${cells},Subtotal,,,,,,,1559.93`,
        `${cells},VAT,,,,,,,233.99`,
        `${cells},Total,,,,,,,1793.92`,
        '',
      ].join('\r\n'),
    );
  });
});
