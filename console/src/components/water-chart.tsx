import { useMemo } from 'react';
import { formatNumber } from '../lib/format.ts';
import { bucketStarts, type Range } from '../lib/ranges.ts';
import { Chart } from './chart.tsx';

/** A water profile's bucket: its start and the kL used in it. */
export interface VolumeBucket {
  ts: string;
  volume_kl: number;
}

const WATER_SERIES = [{ label: 'Water', color: '#0e7490' }];

/** kL per day or month of a range as bars, with the range's total (the buckets' units are the range's). */
export function WaterChart({ buckets, range, title }: { buckets: VolumeBucket[]; range: Range; title: string }) {
  const data = useMemo(() => {
    const byTs = new Map(buckets.map((b) => [Date.parse(b.ts), b.volume_kl]));
    const starts = bucketStarts(range);
    return [starts.map((t) => t / 1000), starts.map((t) => byTs.get(t) ?? null)] as [number[], (number | null)[]];
  }, [buckets, range]);
  const xRange = useMemo<[number, number]>(
    () => [Date.parse(range.start) / 1000, Date.parse(range.end) / 1000],
    [range],
  );
  const total = buckets.reduce((sum, b) => sum + b.volume_kl, 0);
  return (
    <>
      <ul className="totals" aria-label="Water of the period">
        <li>
          <span className="swatch" style={{ background: WATER_SERIES[0]!.color }} aria-hidden="true" />
          Water:{' '}
          <strong data-testid="water-total" data-kl={total}>
            {formatNumber(total, 2)} kL
          </strong>
        </li>
      </ul>
      <Chart
        description={`${title}: ${formatNumber(total, 2)} kL`}
        data={data}
        series={WATER_SERIES}
        kind="bars"
        tz={range.tz}
        xRange={xRange}
        yLabel="kL"
      />
    </>
  );
}
