import { useMemo, useState } from 'react';
import { api, read } from '../api/client.ts';
import { type BuildingBlock, type ComparisonCandidate, isEnergySource, type TariffComparison } from '../api/models.ts';
import { Chart } from '../components/chart.tsx';
import { periodAttributes, StatementHeader } from '../components/statement-header.tsx';
import { Async } from '../components/status.tsx';
import { numeric, TableHead } from '../components/table-head.tsx';
import { TableWrap } from '../components/table-wrap.tsx';
import { firstConfigured } from '../decisions/blocks.ts';
import { CandidatePicker, candidateTariffs } from '../decisions/candidate-picker.tsx';
import { DecisionPage } from '../decisions/decision-page.tsx';
import { DecisionFields, InvalidChoice } from '../decisions/period-fields.tsx';
import { type DecisionRequest, useDecision } from '../decisions/use-decision.ts';
import { comparisonCsv } from '../export/comparison-csv.ts';
import { downloadCsv, fileSafe } from '../lib/download.ts';
import { formatMoney, formatMonth, formatPeriod } from '../lib/format.ts';
import { SOURCE_LABELS } from '../lib/labels.ts';
import { addMonths, instantOf, isoDate, localParts } from '../lib/time.ts';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';

const SAVING_COLOR = '#1a7f37';
const COST_COLOR = '#b3261e';

function compare(request: DecisionRequest, nmdKva: string): Promise<TariffComparison> {
  return read<TariffComparison>(
    api.GET('/api/v1/building_blocks/{id}/tariff-comparison', {
      params: {
        path: { id: request.blockId },
        query: {
          account_id: request.accountId,
          source: isEnergySource(request.source) ? request.source : 'grid',
          start: request.start,
          end: request.end,
          ...(request.tariffIds.length > 0 ? { tariff_ids: request.tariffIds.join(',') } : {}),
          ...(nmdKva === '' ? {} : { nmd_kva: nmdKva }),
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

/** The headline: the tariff to move to and what it saves, or why there is none. */
function Recommendation({ comparison, money }: { comparison: TariffComparison; money: (amount: number) => string }) {
  const recommended = comparison.recommendation;
  return (
    <p data-testid="recommendation" className="headline">
      {recommended ? (
        <>
          Recommended: <strong>{recommended.name}</strong>, which would have saved{' '}
          <strong>{money(recommended.saving)}</strong> ({recommended.saving_pct} %) over this period.
        </>
      ) : (
        <>No recommendation: {comparison.recommendation_reason}.</>
      )}
    </p>
  );
}

/** The candidates the building may not take, each with why. */
function UnavailableCandidates({
  candidates,
  money,
}: {
  candidates: ComparisonCandidate[];
  money: (amount: number) => string;
}) {
  if (candidates.length === 0) return null;
  return (
    <>
      <h3>Not available to this building</h3>
      <TableWrap>
        <table data-testid="unavailable-table" className="wide-names">
          <caption className="visually-hidden">Tariffs this building may not take, and why</caption>
          <TableHead columns={['Tariff', numeric('Total'), 'Why not']} />
          <tbody>
            {candidates.map((c) => (
              <tr key={c.tariff_id} data-tariff-id={c.tariff_id}>
                <th scope="row" style={{ fontWeight: 400 }}>
                  {c.name}
                  <span className="muted"> · {c.catalogue ? 'catalogue' : 'yours'}</span>
                </th>
                <td className="number">{c.total === null ? 'cannot price' : money(c.total)}</td>
                <td data-testid="reasons">{c.reasons.join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}

function ComparisonResult({ comparison, blockName }: { comparison: TariffComparison; blockName: string }) {
  const { tz } = useOrganization();
  const eligible = comparison.candidates.filter((c) => c.eligible);
  const unavailable = comparison.candidates.filter((c) => !c.eligible);
  const priced = eligible.filter((c) => c.total !== null);
  const [shown, setShown] = useState(priced[0]?.tariff_id ?? null);
  // The current bill's currency; when nothing is priced now, the candidates'.
  const currency = comparison.currency ?? comparison.candidates[0]?.currency ?? 'ZAR';
  const money = (amount: number) => formatMoney(amount, currency);
  const period = formatPeriod(comparison.start, comparison.end, tz);
  const exportCsv = () => {
    const { header, rows } = comparisonCsv(comparison);
    // Named by the period's first day where the building is, not by the UTC date of its start.
    const firstDay = isoDate(localParts(Date.parse(comparison.start), tz));
    downloadCsv(`${fileSafe(blockName)}_tariff-comparison_${firstDay}.csv`, header, rows);
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
      <Recommendation comparison={comparison} money={money} />
      <p data-testid="current-total">
        Now (meter {comparison.meter_sn}):{' '}
        <strong>
          {comparison.current.total === null ? 'no tariff for this period' : money(comparison.current.total)}
        </strong>
        {!comparison.current.complete && (
          <span className="muted"> (incomplete: {comparison.current.warnings.join('; ')})</span>
        )}
      </p>
      {comparison.warnings.length > 0 && (
        <p className="muted" data-testid="comparison-warnings">
          {comparison.warnings.join('; ')}
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
      <TableWrap>
        <table data-testid="comparison-table" className="wide-names">
          <caption className="visually-hidden">Tariffs this building may take, from cheapest to dearest</caption>
          <TableHead columns={[numeric('Rank'), 'Tariff', numeric('Total'), 'Against now', 'Notes']} />
          <tbody>
            {eligible.map((c, i) => (
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
      </TableWrap>
      {eligible.length === 0 && <p className="muted">No tariff this building may take was compared.</p>}
      <UnavailableCandidates candidates={unavailable} money={money} />
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

function CompareForm({ blocks, blockId }: { blocks: BuildingBlock[]; blockId: number | undefined }) {
  const { current } = useOrganization();
  const [nmdKva, setNmdKva] = useState('');
  const { choice, setChoice, invalid, request, result, submit, block } = useDecision(
    blocks,
    (decision) => compare(decision, nmdKva),
    blockId,
  );
  const [chosen, setChosen] = useState(new Set<number>());
  const candidates = useResource(() => candidateTariffs(current.id), [current.id]);

  return (
    <>
      <form onSubmit={(event) => submit(event, [...chosen])} className="no-print" aria-label="What to compare">
        <DecisionFields blocks={blocks} choice={choice} onChange={setChoice} withSource />
        <div className="field">
          <label htmlFor="what-if-nmd">What-if NMD (kVA)</label>
          <input
            id="what-if-nmd"
            type="number"
            min={0}
            step="0.001"
            style={{ maxWidth: '12rem' }}
            value={nmdKva}
            onChange={(e) => setNmdKva(e.target.value)}
            aria-describedby="what-if-nmd-hint"
          />
          <p id="what-if-nmd-hint" className="muted hint">
            For a meter without a notified maximum demand; empty: estimated from the highest demand of the year.
          </p>
        </div>
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

/** The form, on the first building that has a dashboard config (a comparison needs one). */
function CompareOnConfigured({ blocks }: { blocks: BuildingBlock[] }) {
  return <CompareForm blocks={blocks} blockId={firstConfigured(blocks)} />;
}

/** Which tariff should a building be on (extensions §12.2): its readings priced on each candidate. */
export function ComparePage() {
  return (
    <DecisionPage
      title="Compare tariffs"
      intro="What a building's readings over a period cost on its tariff now, what they would have cost on each tariff it may take, and which one to move to."
    >
      {(blocks) => <CompareOnConfigured blocks={blocks} />}
    </DecisionPage>
  );
}
