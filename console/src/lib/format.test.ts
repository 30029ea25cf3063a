import { describe, expect, it } from 'vitest';
import {
  currencySymbol,
  formatDateTime,
  formatMoney,
  formatMonth,
  formatNumber,
  formatPeriod,
  formatUnitPrice,
} from './format.ts';

// U+00A0 (no-break space) groups digits in en-ZA; U+202F is not used.
const plain = (text: string) => text.replaceAll('\u00a0', ' ');

describe('formats in the default locale, en-ZA', () => {
  it('writes a negative value that rounds to zero as 0, and keeps real negatives', () => {
    expect(formatNumber(-0.0001, 3)).toBe('0,000');
    expect(formatNumber(-0, 1)).toBe('0,0');
    expect(formatNumber(-12.5, 1)).toBe('-12,5');
  });

  it('writes rands with the R symbol and grouped thousands', () => {
    expect(plain(formatMoney(266662.44, 'ZAR'))).toBe('R 266 662,44');
    expect(currencySymbol('ZAR')).toBe('R');
    expect(currencySymbol('USD')).toBe('$');
  });

  it('names the unit of a price', () => {
    expect(formatUnitPrice(3.2928, 'ZAR', 'kWh')).toBe('R 3,2928/kWh');
    expect(formatUnitPrice(235.16, 'ZAR', 'kVA per month')).toBe('R 235,16/kVA per month');
    expect(formatUnitPrice(34.3, 'ZAR', 'day')).toBe('R 34,30/day');
    expect(formatUnitPrice(12, 'ZAR', 'month')).toBe('R 12,00/month');
  });

  it('writes times on a 24-hour clock, in the zone given', () => {
    expect(formatDateTime('2026-10-01T12:30:00Z', 'Africa/Johannesburg')).toBe('01 Oct 2026, 14:30');
    expect(formatDateTime('2026-10-01T22:00:00Z', 'Africa/Johannesburg', false)).toBe('00:00');
  });

  it('writes a period by its first and last local days, and a month by its name', () => {
    expect(formatPeriod('2026-09-30T22:00:00Z', '2026-10-31T22:00:00Z', 'Africa/Johannesburg')).toBe(
      '01 Oct 2026 – 31 Oct 2026',
    );
    expect(formatMonth('2026-10')).toBe('Oct 2026');
  });
});
