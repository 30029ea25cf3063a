import { useMemo, useState } from 'react';
import { type MonthCost, monthlyCost, type SourceMonth } from '../adapters/monthly-cost.ts';
import { isEnergySource, type TariffItemType } from '../api/models.ts';
import { BILL_CSV_HEADER, billCsvRows } from '../export/bill-csv.ts';
import { downloadCsv, fileSafe } from '../lib/download.ts';
import { formatMoney, formatMonth, formatPeriod } from '../lib/format.ts';
import { itemName, itemTypes } from '../lib/item-types.ts';
import { SOURCE_LABELS } from '../lib/labels.ts';
import { lastMonths } from '../lib/ranges.ts';
import { tariffNames } from '../lib/tariff-names.ts';
import { addMonths, instantOf } from '../lib/time.ts';
import { useResource } from '../lib/use-resource.ts';
import { MeterTariffOffer } from '../setup/meter-tariff-offer.tsx';
import { BillTable } from './bill-table.tsx';
import { Chart } from './chart.tsx';
import { StatementHeader } from './statement-header.tsx';
import { Async } from './status.tsx';

const MONTH_CHOICES = [3, 6, 12];
/** A quarter by default: each month is priced from its readings, which takes a moment per month. */
const DEFAULT_MONTHS = 3;
const COLORS = ['#0b5cad', '#9a6700', '#1a7f37', '#7e3fbf'];
const NO_READINGS_COLOR = '#8c959f';

function SourceBills({
  source,
  month,
  types,
  tz,
  accountId,
}: {
  source: SourceMonth;
  month: string;
  types: Map<string, TariffItemType>;
  tz: string;
  accountId: string;
}) {
  const name = `${SOURCE_LABELS[source.source]}${source.meter_sn ? ` (${source.meter_sn})` : ''}`;
  if (!source.priced) {
    return (
      <li>
        <strong>{name}</strong>: not priced. <span className="muted">{source.reason}</span>
        {source.reason === 'No tariff configured' && isEnergySource(source.source) && (
          <MeterTariffOffer source={source.source} />
        )}
      </li>
    );
  }
  return (
    <li>
      <h4 style={{ margin: '0.75rem 0 0.25rem' }}>{name}</h4>
      {source.bills.length === 0 && <p className="muted">No bill in this month.</p>}
      {source.bills.map((bill) => (
        <BillTable
          key={`${bill.tariff_id}-${bill.start}`}
          bill={bill}
          month={month}
          types={types}
          tz={tz}
          accountId={accountId}
        />
      ))}
    </li>
  );
}

function moneyTotals(totals: Record<string, number>): string {
  const entries = Object.entries(totals);
  return entries.length === 0 ? 'nothing priced' : entries.map(([c, a]) => formatMoney(a, c)).join(' + ');
}

/** A month's cost, or that it had no readings. */
const monthSummary = (m: MonthCost) =>
  m.noReadings ? `no readings (${moneyTotals(m.totals)})` : moneyTotals(m.totals);

/** Every month's bills as a CSV file, one line per charge. */
async function exportBills(months: MonthCost[], accountId: string, blockName: string) {
  const bills = months.flatMap((m) => m.sources.flatMap((s) => s.bills));
  const [names, types] = await Promise.all([
    tariffNames(
      bills.map((b) => b.tariff_id),
      accountId,
    ),
    itemTypes(),
  ]);
  downloadCsv(
    `${fileSafe(blockName)}_bills_${months[0]!.month}_${months.at(-1)!.month}.csv`,
    BILL_CSV_HEADER,
    billCsvRows(
      months,
      (id) => names.get(id)!,
      (code) => itemName(types, code),
    ),
  );
}

function MonthBills({
  month,
  tz,
  accountId,
  blockName,
}: {
  month: MonthCost;
  tz: string;
  accountId: string;
  blockName: string;
}) {
  const types = useResource(itemTypes, []);
  const [currency, amount] = Object.entries(month.totals)[0] ?? [];
  return (
    <section
      aria-labelledby="bills-heading"
      className="statement"
      data-month={month.month}
      data-start={month.start}
      data-end={month.end}
    >
      <StatementHeader title="Electricity bill" subject={blockName} period={formatPeriod(month.start, month.end, tz)} />
      <h3 id="bills-heading">Bills for {formatMonth(month.month)}</h3>
      <p>
        Total:{' '}
        <strong data-testid="month-total" data-amount={amount ?? 0} data-currency={currency ?? ''}>
          {moneyTotals(month.totals)}
        </strong>
        {!month.complete && <span className="muted"> (incomplete: see the warnings of each bill)</span>}
      </p>
      {month.noReadings && (
        <p className="notice" data-testid="no-readings">
          No readings in {formatMonth(month.month)}: this bill has only the fixed charges, not the energy used.
        </p>
      )}
      <Async resource={types} label="Loading the bills…">
        {(names) => (
          <ul style={{ listStyle: 'none', padding: 0 }}>
            {month.sources
              .filter((s) => s.priced || s.meter_sn !== null || s.reason !== 'No meter and no tariff configured')
              .map((s) => (
                <SourceBills
                  key={s.source}
                  source={s}
                  month={month.month}
                  types={names}
                  tz={tz}
                  accountId={accountId}
                />
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
    const total = (m: MonthCost) => Object.values(m.totals).reduce((sum, a) => sum + a, 0);
    const empty = months.some((m) => m.noReadings);
    return {
      currencies,
      data: [
        x,
        ...currencies.map((c) => months.map((m) => (m.noReadings ? null : (m.totals[c] ?? null)))),
        ...(empty ? [months.map((m) => (m.noReadings ? total(m) : null))] : []),
      ] as [number[], ...(number | null)[][]],
      series: [
        ...currencies.map((c, i) => ({ label: c, color: COLORS[i % COLORS.length]! })),
        ...(empty ? [{ label: 'No readings (fixed charges only)', color: NO_READINGS_COLOR }] : []),
      ],
      xRange: [x[0]!, end] as [number, number],
      xTicks: { at: x, label },
    };
  }, [months, tz]);
  const { currencies, ...props } = chart;
  if (currencies.length === 0) return <p className="muted">No source of this block is priced.</p>;
  return (
    <Chart
      description={`Cost per month: ${months.map((m) => `${formatMonth(m.month)} ${monthSummary(m)}`).join('; ')}`}
      kind="bars"
      tz={tz}
      yLabel={currencies.join(', ')}
      height={220}
      onDrawn={onDrawn}
      {...props}
    />
  );
}

/** A building's cost per month as a chart, the months to choose from, and the bills of the chosen month or the energy chart's. */
export function MonthlyCostSection({
  accountId,
  blockId,
  blockName,
  tz,
  chartMonth,
  onDrawn,
}: {
  accountId: string;
  blockId: number;
  blockName: string;
  tz: string;
  /** The month (YYYY-MM) the energy chart shows, last: its bills are shown until another month is chosen. */
  chartMonth: string;
  onDrawn?: () => void;
}) {
  const [count, setCount] = useState(DEFAULT_MONTHS);
  const spans = useMemo(() => lastMonths(count, tz), [count, tz]);
  const cost = useResource(() => monthlyCost(accountId, blockId, spans), [accountId, blockId, spans]);
  // The month chosen here, while the chart shows the month it was chosen with.
  const [choice, setChoice] = useState<{ month: string; chartMonth: string } | null>(null);
  const chosen = choice?.chartMonth === chartMonth ? choice.month : chartMonth;

  return (
    <section aria-labelledby="cost-heading">
      <h2 id="cost-heading">Monthly cost</h2>
      <div className="row no-print">
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
                    <button
                      type="button"
                      aria-pressed={m === shown}
                      data-month={m.month}
                      onClick={() => setChoice({ month: m.month, chartMonth })}
                    >
                      {formatMonth(m.month)}: {monthSummary(m)}
                    </button>
                  </li>
                ))}
              </ul>
              <div className="row no-print">
                <button
                  type="button"
                  className="secondary"
                  onClick={() => void exportBills(months, accountId, blockName)}
                >
                  Export CSV
                </button>
                <button type="button" className="secondary" onClick={() => window.print()}>
                  Print the bill
                </button>
              </div>
              <MonthBills month={shown} tz={tz} accountId={accountId} blockName={blockName} />
            </>
          );
        }}
      </Async>
    </section>
  );
}
