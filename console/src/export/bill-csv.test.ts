import { describe, expect, it } from 'vitest';
import { toCsv } from '../../../src/lib/csv.ts';
import type { MonthCost } from '../adapters/monthly-cost.ts';
import type { BillLine } from '../api/models.ts';
import { BILL_CSV_HEADER, billCsvRows } from './bill-csv.ts';

/** A bill line without tiers. */
const line = (
  item_type_code: BillLine['item_type_code'],
  season: BillLine['season'],
  period: BillLine['period'],
  quantity: number,
  unit: string,
  unit_price: number,
  amount: number,
): BillLine => ({ item_type_code, season, period, block_index: null, quantity, unit, unit_price, amount });

const october: MonthCost = {
  month: '2026-10',
  start: '2026-09-30T22:00:00.000Z',
  end: '2026-10-31T22:00:00.000Z',
  totals: { ZAR: 10959.37 },
  noReadings: false,
  complete: true,
  sources: [
    {
      source: 'grid',
      meter_sn: 'DEMO-GRID-001',
      tariff_id: 1001,
      priced: true,
      reason: null,
      bills: [
        {
          tariff_id: 1001,
          meter_sn: 'DEMO-GRID-001',
          currency: 'ZAR',
          approximate: false,
          start: '2026-09-30T22:00:00.000Z',
          end: '2026-10-31T22:00:00.000Z',
          import_kwh: 2865.571,
          export_kwh: 0,
          lines: [
            line('TOU_PEAK_ENERGY', 'SUMMER', 'PEAK', 2865.571, 'kWh', 3.2928, 9435.75),
            line('SERVICE', 'ALL_YEAR', null, 31, 'day', 3.27, 101.37),
          ],
          subtotal: 9537.12,
          tax: 1430.57,
          total: 10967.69,
          missing_intervals: 0,
          complete: true,
          warnings: [],
        },
      ],
    },
  ],
};

describe("a building's bills as CSV", () => {
  it('writes a line per charge, then the subtotal, tax and total of each bill of each month', () => {
    const names = new Map([[1001, 'Megaflex, urban']]);
    const csv = toCsv(
      BILL_CSV_HEADER,
      billCsvRows(
        [october],
        (id) => names.get(id)!,
        (code) => (code === 'SERVICE' ? 'Service charge' : 'Peak energy'),
      ),
    );
    expect(csv.split('\r\n')).toEqual([
      'month,source,meter_sn,tariff,charge,item_type_code,season,period,tier,quantity,unit,unit_price,amount,currency',
      '2026-10,Grid,DEMO-GRID-001,"Megaflex, urban",Peak energy,TOU_PEAK_ENERGY,SUMMER,PEAK,,2865.571,kWh,3.2928,9435.75,ZAR',
      '2026-10,Grid,DEMO-GRID-001,"Megaflex, urban",Service charge,SERVICE,ALL_YEAR,,,31,day,3.27,101.37,ZAR',
      '2026-10,Grid,DEMO-GRID-001,"Megaflex, urban",Subtotal,,,,,,,,9537.12,ZAR',
      '2026-10,Grid,DEMO-GRID-001,"Megaflex, urban",Tax,,,,,,,,1430.57,ZAR',
      '2026-10,Grid,DEMO-GRID-001,"Megaflex, urban",Total,,,,,,,,10967.69,ZAR',
      '',
    ]);
  });

  it('writes no line for a month whose sources have no bill', () => {
    const empty = { ...october, sources: [{ ...october.sources[0]!, bills: [] }] };
    expect(billCsvRows([empty], String, String)).toEqual([]);
  });
});
