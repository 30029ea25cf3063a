import { describe, expect, it } from 'vitest';
import { demandBasisText, lineQuantity, priceUnit } from './bill-lines.ts';

const TZ = 'Africa/Johannesburg';
const november = { month: '2026-11', start: '2026-10-31T22:00:00.000Z', end: '2026-11-30T22:00:00.000Z' };

describe('a bill line as a reader checks it', () => {
  it('shows a kVA charge on part of a month as the kVA pro rata of the days covered', () => {
    const twentyDays = { ...november, end: '2026-11-20T22:00:00.000Z' };
    expect(lineQuantity({ quantity: 333.333333, unit: 'kVA' }, twentyDays, TZ)).toBe('500,00 kVA × 20/30 days');
  });

  it('shows part days with two decimals', () => {
    const partDay = { ...november, end: '2026-11-20T10:00:00.000Z' };
    expect(lineQuantity({ quantity: 325, unit: 'kVA' }, partDay, TZ)).toBe('500,00 kVA × 19,50/30 days');
  });

  it('shows a whole month’s kVA, and any other quantity, as it is', () => {
    expect(lineQuantity({ quantity: 70.690838, unit: 'kVA' }, november, TZ)).toBe('70,69 kVA');
    expect(
      lineQuantity({ quantity: 2865.571, unit: 'kWh' }, { ...november, end: '2026-11-20T22:00:00.000Z' }, TZ),
    ).toBe('2\u00a0865,57 kWh');
  });

  it('prices kVA per kVA per month, other units per their unit', () => {
    expect(priceUnit('kVA')).toBe('kVA per month');
    expect(priceUnit('kVA/month')).toBe('kVA per month');
    expect(priceUnit('kWh')).toBe('kWh');
  });

  it('names the demand a kVA/month item charges, and in which periods', () => {
    expect(demandBasisText({ unit: 'kVA/month', demand_basis: null, demand_periods: ['PEAK', 'STANDARD'] })).toBe(
      "on the month's highest half-hour demand in Peak and Standard",
    );
    expect(demandBasisText({ unit: 'kVA', demand_basis: 'UTILISED_CAPACITY', demand_periods: null })).toBe(
      'on the utilised capacity: the higher of the NMD and the highest demand of the last 12 months',
    );
    expect(demandBasisText({ unit: 'kVA', demand_basis: 'OFF_PEAK_ONLY', demand_periods: ['OFF_PEAK'] })).toBe(
      'on OFF_PEAK_ONLY in Off-peak',
    );
    expect(demandBasisText({ unit: 'kWh', demand_basis: null })).toBe('');
  });
});
