import { Decimal } from 'decimal.js';

/** The symbol a currency is written with in words; the others by their code. */
const SYMBOLS: Readonly<Record<string, string>> = { ZAR: 'R' };

/** Digits grouped by three with spaces: 105320 as "105 320". */
const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/**
 * Money as a flag's message writes it, as the console writes rand (South African style): the
 * currency's symbol (R for ZAR) or its code, a space, the amount to the cent with thousands
 * grouped by spaces and a decimal comma: "R 105 320,41", "-R 50,00", "USD 12,00".
 */
export function moneyText(amount: Decimal.Value, currency: string): string {
  const value = new Decimal(amount).toDecimalPlaces(2);
  const [whole, cents] = value.abs().toFixed(2).split('.') as [string, string];
  return `${value.isNegative() && !value.isZero() ? '-' : ''}${SYMBOLS[currency] ?? currency} ${grouped(whole)},${cents}`;
}

/** A quantity with its unit, written as money is: "2 865,571 kWh". */
export function quantityText(quantity: Decimal.Value, unit: string): string {
  const [whole, fraction] = new Decimal(quantity).toFixed().split('.') as [string, string | undefined];
  return `${grouped(whole)}${fraction === undefined ? '' : `,${fraction}`} ${unit}`;
}
