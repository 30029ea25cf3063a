import { describe, expect, it } from 'vitest';
import { toCsv } from '../../../src/lib/csv.ts';
import type { TariffComparison } from '../api/models.ts';
import { comparisonCsv } from './comparison-csv.ts';

const comparison = {
  building_block_id: 1,
  source: 'grid',
  meter_sn: 'DEMO-GRID-001',
  start: '2026-08-31T22:00:00.000Z',
  end: '2026-10-31T22:00:00.000Z',
  currency: 'ZAR',
  current: {
    total: 200,
    months: [
      { month: '2026-09', total: 90 },
      { month: '2026-10', total: 110 },
    ],
    complete: true,
    warnings: [],
  },
  candidates: [
    {
      tariff_id: 8,
      name: 'Eskom Megaflex, local authority',
      catalogue: true,
      currency: 'ZAR',
      total: 150.5,
      difference: -49.5,
      months: [
        { month: '2026-09', total: 70 },
        { month: '2026-10', total: 80.5 },
      ],
      complete: false,
      warnings: ['No readings in 2026-09', 'kVA taken as kW: the readings carry no reactive energy'],
    },
    {
      tariff_id: 12,
      name: 'Homeflex',
      catalogue: true,
      currency: 'ZAR',
      total: null,
      difference: null,
      months: [],
      complete: false,
      warnings: ['demand_periods on a tariff without a schedule'],
    },
  ],
} as unknown as TariffComparison;

describe('a tariff comparison as CSV', () => {
  it('writes the current bills, then each candidate by rank, a column per month; one that cannot price has no rank', () => {
    const { header, rows } = comparisonCsv(comparison);
    expect(toCsv(header, rows).split('\r\n')).toEqual([
      'rank,tariff_id,tariff,catalogue,currency,total,difference,complete,warnings,2026-09,2026-10',
      ',,Current tariffs,,ZAR,200,0,true,,90,110',
      '1,8,"Eskom Megaflex, local authority",true,ZAR,150.5,-49.5,false,No readings in 2026-09; kVA taken as kW: the readings carry no reactive energy,70,80.5',
      ',12,Homeflex,true,ZAR,,,false,demand_periods on a tariff without a schedule,,',
      '',
    ]);
  });
});
