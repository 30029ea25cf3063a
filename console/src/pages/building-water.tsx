import { useMemo } from 'react';
import { api, read } from '../api/client.ts';
import type { Meter } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { type VolumeBucket, WaterChart } from '../components/water-chart.tsx';
import { meterLabel } from '../lib/meters.ts';
import { type Range, readingsEnd } from '../lib/ranges.ts';
import { Link } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';

/** Water is drawn per day or per month: an hour of a hand-read dial says little. */
const waterRangeOf = (range: Range): Range => ({ ...range, unit: range.unit === 'month' ? 'month' : 'day' });

/** The building's water supply meter and its kL over the page's range. */
export function WaterSection({ meterId, range }: { meterId: number; range: Range }) {
  const { current } = useOrganization();
  const waterRange = useMemo(() => waterRangeOf(range), [range]);
  const loaded = useResource(async () => {
    const meter = await read<Meter>(
      api.GET('/api/v1/meters/{id}', { params: { path: { id: meterId }, query: { account_id: current.id } } }),
    );
    const end = readingsEnd(waterRange);
    const buckets =
      Date.parse(end) > Date.parse(waterRange.start)
        ? await read<VolumeBucket[]>(
            api.GET('/api/v1/timeseries/water/volume-profile', {
              params: {
                query: {
                  account_id: current.id,
                  meter_sn: meter.meter_sn,
                  start: waterRange.start,
                  end,
                  group_by: waterRange.unit,
                  tz: waterRange.tz,
                },
              },
            }),
          )
        : [];
    return { meter, buckets };
  }, [current.id, meterId, waterRange.start, waterRange.end, waterRange.unit]);
  return (
    <section aria-labelledby="water-heading">
      <h2 id="water-heading">Water</h2>
      <Async resource={loaded} label="Loading water…">
        {({ meter, buckets }) => (
          <>
            <p className="muted">
              Meter <Link href={`/meters/${meter.id}`}>{meterLabel(meter)}</Link>, kL per{' '}
              {waterRange.unit === 'month' ? 'month' : 'day'}. Its bills are in the monthly cost below.
            </p>
            <WaterChart buckets={buckets} range={waterRange} title="Water" />
          </>
        )}
      </Async>
    </section>
  );
}
