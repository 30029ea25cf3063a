import { useMemo, useState } from 'react';
import { type MonthBill, type MonthCost, monthlyCost, type SourceMonth } from '../adapters/monthly-cost.ts';
import type { TariffItemType } from '../api/models.ts';
import { counted, formatMoney, formatMonth, formatNumber, formatPrice, titleCase } from '../lib/format.ts';
import { itemName, itemTypes } from '../lib/item-types.ts';
import { lastMonths } from '../lib/ranges.ts';
import { Link } from '../lib/router.tsx';
import { addMonths, instantOf } from '../lib/time.ts';
import { useResource } from '../lib/use-resource.ts';
import { MeterTariffOffer } from '../setup/meter-tariff-offer.tsx';
import { Chart } from './chart.tsx';
import { Async } from './status.tsx';

const MONTH_CHOICES = [3, 6, 12];
/** A quarter by default: each month is priced from its readings, which takes a moment per month. */
const DEFAULT_MONTHS = 3;
const COLORS = ['#0b5cad', '#9a6700', '#1a7f37', '#7e3fbf'];

function BillTable({ bill, types, tz }: { bill: MonthBill; types: Map<string, TariffItemType>; tz: string }) {
  const period = `${new Date(bill.start).toLocaleDateString(undefined, { timeZone: tz })} – ${new Date(
    Date.parse(bill.end) - 1,
  ).toLocaleDateString(undefined, { timeZone: tz })}`;
  const money = (amount: number) => formatMoney(amount, bill.currency);
  return (
    <div className="table-wrap">
      <table>
        <caption style={{ textAlign: 'left', padding: '0.25rem 0' }}>
          Tariff <Link href={`/tariffs/${bill.tariff_id}`}>#{bill.tariff_id}</Link>, meter {bill.meter_sn}, {period}
          {bill.approximate && ' (approximate)'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Charge</th>
            <th scope="col" className="number">
              Quantity
            </th>
            <th scope="col" className="number">
              Unit price
            </th>
            <th scope="col" className="number">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {bill.lines.map((line) => (
            <tr key={`${line.item_type_code}-${line.season}-${line.period}-${line.block_index}`}>
              <th scope="row" style={{ fontWeight: 400 }}>
                {itemName(types, line.item_type_code)}
                <span className="muted">
                  {' '}
                  · {titleCase(line.season)}
                  {line.period && ` · ${titleCase(line.period)}`}
                  {line.block_index !== null && ` · tier ${line.block_index + 1}`}
                </span>
              </th>
              <td className="number">
                {formatNumber(line.quantity, 2)} {line.unit}
              </td>
              <td className="number">{formatPrice(line.unit_price)}</td>
              <td className="number">{money(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {(
            [
              ['Subtotal', bill.subtotal],
              ['Tax', bill.tax],
              ['Total', bill.total],
            ] as const
          ).map(([name, amount]) => (
            <tr key={name}>
              <th scope="row" colSpan={3}>
                {name}
              </th>
              <td className="number" data-amount={amount}>
                {money(amount)}
              </td>
            </tr>
          ))}
        </tfoot>
      </table>
      {bill.missing_intervals > 0 && (
        <p className="muted">
          {counted(bill.missing_intervals, 'interval')} of this meter without a reading: the bill is incomplete.
        </p>
      )}
      {bill.warnings.length > 0 && (
        <ul className="muted">
          {bill.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SourceBills({ source, types, tz }: { source: SourceMonth; types: Map<string, TariffItemType>; tz: string }) {
  const name = `${titleCase(source.source)}${source.meter_sn ? ` (${source.meter_sn})` : ''}`;
  if (!source.priced) {
    return (
      <li>
        <strong>{name}</strong>: not priced. <span className="muted">{source.reason}</span>
        {source.reason === 'No tariff configured' && <MeterTariffOffer source={source.source} />}
      </li>
    );
  }
  return (
    <li>
      <h4 style={{ margin: '0.75rem 0 0.25rem' }}>{name}</h4>
      {source.bills.length === 0 && <p className="muted">No bill in this month.</p>}
      {source.bills.map((bill) => (
        <BillTable key={`${bill.tariff_id}-${bill.start}`} bill={bill} types={types} tz={tz} />
      ))}
    </li>
  );
}

function moneyTotals(totals: Record<string, number>): string {
  const entries = Object.entries(totals);
  return entries.length === 0 ? 'nothing priced' : entries.map(([c, a]) => formatMoney(a, c)).join(' + ');
}

function MonthBills({ month, tz }: { month: MonthCost; tz: string }) {
  const types = useResource(itemTypes, []);
  const [currency, amount] = Object.entries(month.totals)[0] ?? [];
  return (
    <section aria-labelledby="bills-heading" data-month={month.month} data-start={month.start} data-end={month.end}>
      <h3 id="bills-heading">Bills for {formatMonth(month.month)}</h3>
      <p>
        Total:{' '}
        <strong data-testid="month-total" data-amount={amount ?? 0} data-currency={currency ?? ''}>
          {moneyTotals(month.totals)}
        </strong>
        {!month.complete && <span className="muted"> (incomplete: see the warnings of each bill)</span>}
      </p>
      <Async resource={types} label="Loading the bills…">
        {(names) => (
          <ul style={{ listStyle: 'none', padding: 0 }}>
            {month.sources
              .filter((s) => s.priced || s.meter_sn !== null || s.reason !== 'No meter and no tariff configured')
              .map((s) => (
                <SourceBills key={s.source} source={s} types={names} tz={tz} />
              ))}
          </ul>
        )}
      </Async>
    </section>
  );
}

function CostChart({ months, tz, onDrawn }: { months: MonthCost[]; tz: string; onDrawn?: () => void }) {
  const chart = useMemo(() => {
    const currencies = [...new Set(months.flatMap((m) => Object.keys(m.totals)))];
    const x = months.map((m) => Date.parse(m.start) / 1000);
    const [year, month] = months.at(-1)!.month.split('-').map(Number);
    const end = instantOf(addMonths({ year: year!, month: month!, day: 1 }, 1), tz) / 1000;
    const label = (s: number) => formatMonth(months[x.indexOf(s)]?.month ?? '');
    return {
      currencies,
      data: [x, ...currencies.map((c) => months.map((m) => m.totals[c] ?? null))] as [number[], ...(number | null)[][]],
      series: currencies.map((c, i) => ({ label: c, color: COLORS[i % COLORS.length]! })),
      xRange: [x[0]!, end] as [number, number],
      xTicks: { at: x, label },
    };
  }, [months, tz]);
  const { currencies, ...props } = chart;
  if (currencies.length === 0) return <p className="muted">No source of this block is priced.</p>;
  return (
    <Chart
      description={`Cost per month: ${months.map((m) => `${formatMonth(m.month)} ${moneyTotals(m.totals)}`).join('; ')}`}
      kind="bars"
      tz={tz}
      yLabel={currencies.join(', ')}
      height={220}
      onDrawn={onDrawn}
      {...props}
    />
  );
}

/** A building's cost per month as a chart, the months to choose from, and the chosen month's bills. */
export function MonthlyCostSection({
  accountId,
  blockId,
  tz,
  onDrawn,
}: {
  accountId: string;
  blockId: number;
  tz: string;
  onDrawn?: () => void;
}) {
  const [count, setCount] = useState(DEFAULT_MONTHS);
  const spans = useMemo(() => lastMonths(count, tz), [count, tz]);
  const cost = useResource(() => monthlyCost(accountId, blockId, spans), [accountId, blockId, spans]);
  const [chosen, setChosen] = useState<string | null>(null);

  return (
    <section aria-labelledby="cost-heading">
      <h2 id="cost-heading">Monthly cost</h2>
      <div className="row">
        <div>
          <label htmlFor="cost-months">Months</label>
          <select id="cost-months" value={count} onChange={(e) => setCount(Number(e.target.value))}>
            {MONTH_CHOICES.map((n) => (
              <option key={n} value={n}>
                Last {n} months
              </option>
            ))}
          </select>
        </div>
      </div>
      <Async resource={cost} label="Pricing the months…">
        {(months) => {
          const shown = months.find((m) => m.month === chosen) ?? months.at(-1)!;
          return (
            <>
              <CostChart months={months} tz={tz} onDrawn={onDrawn} />
              <ul className="months" aria-label="Choose a month">
                {months.map((m) => (
                  <li key={m.month}>
                    <button type="button" aria-pressed={m === shown} onClick={() => setChosen(m.month)}>
                      {formatMonth(m.month)}: {moneyTotals(m.totals)}
                    </button>
                  </li>
                ))}
              </ul>
              <MonthBills month={shown} tz={tz} />
            </>
          );
        }}
      </Async>
    </section>
  );
}
