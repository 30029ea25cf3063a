import { useMemo, useState } from 'react';
import { api, read } from '../api/client.ts';
import type { BuildingBlock, TariffComparison } from '../api/models.ts';
import { Chart } from '../components/chart.tsx';
import { periodAttributes, StatementHeader } from '../components/statement-header.tsx';
import { Async } from '../components/status.tsx';
import { numeric, TableHead } from '../components/table-head.tsx';

import { CandidatePicker, candidateTariffs } from '../decisions/candidate-picker.tsx';
import { DecisionPage } from '../decisions/decision-page.tsx';
import { DecisionFields, InvalidChoice } from '../decisions/period-fields.tsx';
import { type DecisionRequest, useDecision } from '../decisions/use-decision.ts';
import { comparisonCsv } from '../export/comparison-csv.ts';
import { downloadCsv, fileSafe } from '../lib/download.ts';
import { formatMoney, formatMonth, formatPeriod } from '../lib/format.ts';
import { SOURCE_LABELS } from '../lib/labels.ts';
import { addMonths, instantOf } from '../lib/time.ts';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';

const SAVING_COLOR = '#1a7f37';
const COST_COLOR = '#b3261e';

function compare(request: DecisionRequest): Promise<TariffComparison> {
  return read<TariffComparison>(
    api.GET('/api/v1/building_blocks/{id}/tariff-comparison', {
      params: {
        path: { id: request.blockId },
        query: {
          account_id: request.accountId,
          source: request.source,
          start: request.start,
          end: request.end,
          ...(request.tariffIds.length > 0 ? { tariff_ids: request.tariffIds.join(',') } : {}),
        },
      },
    }),
  );
}

/** "saves R 1 200,00" or "costs R 300,00 more". */
function differenceText(difference: number | null, currency: string): string {
  if (difference === null) return '–';
  if (difference === 0) return 'the same';
  return difference < 0
    ? `saves ${formatMoney(-difference, currency)}`
    : `costs ${formatMoney(difference, currency)} more`;
}

/** What one candidate would have saved each month against the current bills. */
function SavingsChart({
  comparison,
  currency,
  tariffId,
  tz,
}: {
  comparison: TariffComparison;
  currency: string;
  tariffId: number;
  tz: string;
}) {
  const candidate = comparison.candidates.find((c) => c.tariff_id === tariffId)!;
  const chart = useMemo(() => {
    const months = comparison.current.months;
    const start = (month: string) => {
      const [year, number] = month.split('-').map(Number);
      return { year: year!, month: number!, day: 1 };
    };
    const x = months.map((m) => instantOf(start(m.month), tz) / 1000);
    const savings = months.map((m) => {
      const other = candidate.months.find((c) => c.month === m.month)?.total;
      return other === undefined || other === null ? null : Math.round((m.total - other) * 100) / 100;
    });
    const end = instantOf(addMonths(start(months.at(-1)!.month), 1), tz) / 1000;
    return {
      savings,
      data: [
        x,
        savings.map((s) => (s !== null && s >= 0 ? s : null)),
        savings.map((s) => (s !== null && s < 0 ? s : null)),
      ] as [number[], ...(number | null)[][]],
      series: [
        { label: 'Saving', color: SAVING_COLOR },
        { label: 'Extra cost', color: COST_COLOR },
      ],
      xRange: [Math.max(x[0]!, Date.parse(comparison.start) / 1000), end] as [number, number],
      xTicks: { at: x, label: (s: number) => formatMonth(months[x.indexOf(s)]?.month ?? '') },
    };
  }, [comparison, candidate, tz]);
  if (comparison.current.months.length === 0) return null;
  const { savings, ...props } = chart;
  return (
    <Chart
      description={`Saving per month on ${candidate.name}: ${comparison.current.months
        .map(
          (m, i) =>
            `${formatMonth(m.month)} ${savings[i] === null ? 'not priced' : formatMoney(savings[i]!, currency)}`,
        )
        .join('; ')}`}
      kind="bars"
      tz={tz}
      yLabel={currency}
      height={220}
      {...props}
    />
  );
}

function ComparisonResult({ comparison, blockName }: { comparison: TariffComparison; blockName: string }) {
  const { tz } = useOrganization();
  const priced = comparison.candidates.filter((c) => c.total !== null);
  const [shown, setShown] = useState(priced[0]?.tariff_id ?? null);
  // The current bill's currency; when nothing is priced now, the candidates'.
  const currency = comparison.currency ?? comparison.candidates[0]?.currency ?? 'ZAR';
  const money = (amount: number) => formatMoney(amount, currency);
  const period = formatPeriod(comparison.start, comparison.end, tz);
  const best = priced[0];
  const exportCsv = () => {
    const { header, rows } = comparisonCsv(comparison);
    downloadCsv(`${fileSafe(blockName)}_tariff-comparison_${comparison.start.slice(0, 10)}.csv`, header, rows);
  };
  return (
    <section aria-labelledby="result-heading" className="statement" {...periodAttributes(comparison)}>
      <StatementHeader
        title="Tariff comparison"
        subject={`${blockName}, ${SOURCE_LABELS[comparison.source]}`}
        period={period}
      />
      <h2 id="result-heading">
        {SOURCE_LABELS[comparison.source]} of {blockName}, {period}
      </h2>
      <p data-testid="current-total">
        Now (meter {comparison.meter_sn}):{' '}
        <strong>
          {comparison.current.total === null ? 'no tariff for this period' : money(comparison.current.total)}
        </strong>
        {!comparison.current.complete && (
          <span className="muted"> (incomplete: {comparison.current.warnings.join('; ')})</span>
        )}
      </p>
      {best && (
        <p data-testid="best-candidate">
          Cheapest: <strong>{best.name}</strong>, which {differenceText(best.difference, currency)}
          {best.warnings.length > 0 ? ' (see its notes before deciding).' : '.'}
        </p>
      )}
      <div className="row no-print">
        <button type="button" className="secondary" onClick={exportCsv}>
          Export CSV
        </button>
        <button type="button" className="secondary" onClick={() => window.print()}>
          Print
        </button>
      </div>
      <div className="table-wrap">
        <table data-testid="comparison-table" className="wide-names">
          <caption className="visually-hidden">Candidate tariffs from cheapest to dearest</caption>
          <TableHead columns={[numeric('Rank'), 'Tariff', numeric('Total'), 'Against now', 'Notes']} />
          <tbody>
            {comparison.candidates.map((c, i) => (
              <tr key={c.tariff_id} data-tariff-id={c.tariff_id}>
                <td className="number">{c.total === null ? '–' : i + 1}</td>
                <th scope="row" style={{ fontWeight: 400 }}>
                  {c.name}
                  <span className="muted"> · {c.catalogue ? 'catalogue' : 'yours'}</span>
                </th>
                <td className="number" data-amount={c.total ?? ''}>
                  {c.total === null ? 'cannot price' : money(c.total)}
                </td>
                <td
                  className={c.difference !== null && c.difference < 0 ? 'saving' : undefined}
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {differenceText(c.difference, currency)}
                </td>
                <td className="muted">
                  {c.complete ? '' : 'Incomplete. '}
                  {c.warnings.join('; ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {shown !== null && (
        <>
          <h3>Saving per month</h3>
          <div className="no-print">
            <label htmlFor="savings-of">Savings of</label>
            <select id="savings-of" value={shown} onChange={(e) => setShown(Number(e.target.value))}>
              {priced.map((c) => (
                <option key={c.tariff_id} value={c.tariff_id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <SavingsChart comparison={comparison} currency={currency} tariffId={shown} tz={tz} />
          <p className="muted" style={{ fontSize: '0.85rem' }}>
            Above zero: the tariff would have cost less than the current bills that month; below zero: more.
          </p>
        </>
      )}
    </section>
  );
}

function CompareForm({ blocks }: { blocks: BuildingBlock[] }) {
  const { current } = useOrganization();
  const { choice, setChoice, invalid, request, result, submit, block } = useDecision(blocks, compare);
  const [chosen, setChosen] = useState(new Set<number>());
  const candidates = useResource(() => candidateTariffs(current.id), [current.id]);

  return (
    <>
      <form onSubmit={(event) => submit(event, [...chosen])} className="no-print" aria-label="What to compare">
        <DecisionFields blocks={blocks} choice={choice} onChange={setChoice} withSource />
        <Async resource={candidates} label="Loading the tariffs…">
          {(list) => <CandidatePicker candidates={list} chosen={chosen} onChange={setChosen} />}
        </Async>
        <button type="submit">Compare</button>
        <InvalidChoice reason={invalid} />
      </form>
      {request && (
        <Async resource={result} label="Pricing the candidates…">
          {(comparison) => comparison && block && <ComparisonResult comparison={comparison} blockName={block.name} />}
        </Async>
      )}
    </>
  );
}

/** Which tariff should a building be on (extensions §12.2): its readings priced on each candidate. */
export function ComparePage() {
  return (
    <DecisionPage
      title="Compare tariffs"
      intro="What a building's readings over a period cost on its tariffs now, and what they would have cost on each other tariff."
    >
      {(blocks) => <CompareForm blocks={blocks} />}
    </DecisionPage>
  );
}
