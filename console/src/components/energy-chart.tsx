import { useMemo } from 'react';
import type { BuildingEnergyRow, EnergySource } from '../api/models.ts';
import { downloadCsv, fileSafe } from '../lib/download.ts';
import { dateTimeFormatOf, formatNumber } from '../lib/format.ts';
import { bucketStarts, type Range } from '../lib/ranges.ts';
import { isoDate } from '../lib/time.ts';
import { Chart, type ChartSeries } from './chart.tsx';

/** A series of an energy chart: its name, colour and value in a row (kWh; below zero: leaving the building). */
export interface EnergySeries extends ChartSeries {
  value: (row: BuildingEnergyRow) => number | undefined;
}

const SERIES: Record<EnergySource, EnergySeries[]> = {
  grid: [
    { label: 'Grid import', color: '#0b5cad', value: (r) => r.sources.grid?.import_kwh },
    {
      label: 'Returned to grid',
      color: '#7e3fbf',
      dash: [6, 3],
      value: (r) => r.sources.grid && -r.sources.grid.export_kwh,
    },
  ],
  // Generators: what they produced, however their meter counts it (import or export).
  solar: [{ label: 'Solar', color: '#9a6700', value: (r) => r.sources.solar && Math.abs(r.sources.solar.net_kwh) }],
  genset: [
    {
      label: 'Generator',
      color: '#57606a',
      dash: [2, 3],
      value: (r) => r.sources.genset && Math.abs(r.sources.genset.net_kwh),
    },
  ],
  inverter: [
    { label: 'Inverter', color: '#1a7f37', value: (r) => r.sources.inverter && Math.abs(r.sources.inverter.net_kwh) },
  ],
  load: [{ label: 'Load', color: '#c2410c', dash: [10, 4], value: (r) => r.sources.load?.import_kwh }],
};

/** The series of the sources that have a meter, in a fixed order (with or without readings in a range). */
export function seriesOf(sources: Set<EnergySource>): EnergySeries[] {
  return (Object.keys(SERIES) as EnergySource[]).filter((s) => sources.has(s)).flatMap((s) => SERIES[s]);
}

const bucketLabel = (range: Range) =>
  dateTimeFormatOf(
    range.tz,
    range.unit === 'hour'
      ? { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }
      : range.unit === 'day'
        ? { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }
        : { month: 'long', year: 'numeric' },
  );

/** The chart's numbers as a CSV file: one line per period with readings, the period's start as ISO 8601. */
function exportEnergy(
  title: string,
  range: Range,
  series: EnergySeries[],
  rows: { t: number; values: (number | null)[] }[],
) {
  downloadCsv(
    `${fileSafe(title)}_${isoDate(range.from)}_${isoDate(range.to)}.csv`,
    ['period_start', ...series.map((s) => `${s.label} (kWh)`)],
    rows.map((r) => [new Date(r.t).toISOString(), ...r.values]),
  );
}

/** Energy per bucket of a range as a chart, totals per series, and the numbers in a table. */
export function EnergyChart({
  rows,
  series,
  range,
  title,
  onDrawn,
}: {
  rows: BuildingEnergyRow[];
  series: EnergySeries[];
  range: Range;
  title: string;
  onDrawn?: () => void;
}) {
  const table = useMemo(() => {
    const byTs = new Map(rows.map((row) => [Date.parse(row.ts), row]));
    const starts = bucketStarts(range);
    return starts.map((t) => ({
      t,
      values: series.map((s) => (byTs.has(t) ? (s.value(byTs.get(t)!) ?? null) : null)),
    }));
  }, [rows, series, range]);

  const data = useMemo(() => {
    const x = [...table.map((r) => r.t / 1000), Date.parse(range.end) / 1000];
    const columns = series.map((_, i) => table.map((r) => r.values[i]!));
    return [x, ...columns] as [number[], ...(number | null)[][]];
  }, [table, series, range]);

  const xRange = useMemo<[number, number]>(
    () => [Date.parse(range.start) / 1000, Date.parse(range.end) / 1000],
    [range],
  );
  const totals = series.map((_, i) => table.reduce((sum, r) => sum + Math.abs(r.values[i] ?? 0), 0));
  const withData = table.filter((r) => r.values.some((v) => v !== null));
  const label = bucketLabel(range);

  if (series.length === 0) return <p className="muted">No meters of this block have electricity data.</p>;
  return (
    <>
      <button type="button" className="secondary no-print" onClick={() => exportEnergy(title, range, series, withData)}>
        Export CSV
      </button>
      <ul className="totals" aria-label="Totals of the period">
        {series.map((s, i) => (
          <li key={s.label}>
            <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
            {s.label}: <strong>{formatNumber(totals[i]!)} kWh</strong>
          </li>
        ))}
      </ul>
      {withData.length === 0 && (
        <p className="muted" role="status">
          No readings in this period.
        </p>
      )}
      <Chart
        description={`${title}: ${series.map((s, i) => `${s.label} ${formatNumber(totals[i]!)} kWh`).join(', ')}`}
        data={data}
        series={series}
        kind="steps"
        tz={range.tz}
        xRange={xRange}
        yLabel="kWh"
        onDrawn={onDrawn}
      />
      <details>
        <summary>Show the numbers ({withData.length} periods with readings)</summary>
        <div className="table-wrap">
          <table data-testid="energy-table">
            <caption className="visually-hidden">{title}, kWh per period</caption>
            <thead>
              <tr>
                <th scope="col">Period</th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className="number">
                    {s.label} (kWh)
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {withData.map((r) => (
                <tr key={r.t} data-ts={new Date(r.t).toISOString()}>
                  <th scope="row">{label.format(r.t)}</th>
                  {r.values.map((v, i) => (
                    <td key={series[i]!.label} className="number" data-value={v ?? ''}>
                      {v === null ? '–' : formatNumber(v, 3)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
