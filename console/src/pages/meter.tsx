import { useEffect, useMemo } from 'react';
import { meterEnergyProfile } from '../adapters/building-energy.ts';
import { api, read } from '../api/client.ts';
import type { BuildingEnergyRow, LatestPower, Meter } from '../api/models.ts';
import { EnergyChart, type EnergySeries } from '../components/energy-chart.tsx';
import { RangePicker } from '../components/range-picker.tsx';
import { Async } from '../components/status.tsx';
import { TariffLink } from '../components/tariff-link.tsx';
import { formatDateTime, formatNumber } from '../lib/format.ts';
import { meterTypeLabel } from '../lib/labels.ts';
import { hasElectricityData, meterLabel } from '../lib/meters.ts';
import { lastWeekOfDays, queryOfRange, rangeFromQuery } from '../lib/ranges.ts';
import { Link, setQuery, useLocation } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { WaterMeterSection } from './water-meter.tsx';

/** How far back the latest power is looked for. */
const LATEST_WITHIN_DAYS = 30;

const METER_SERIES: EnergySeries[] = [
  { label: 'Import', color: '#0b5cad', value: (r) => r.sources.grid?.import_kwh },
  { label: 'Export', color: '#7e3fbf', dash: [6, 3], value: (r) => r.sources.grid && -r.sources.grid.export_kwh },
];

function LatestPowerCard({ meter }: { meter: Meter }) {
  const { current, tz } = useOrganization();
  const latest = useResource(() => {
    const end = Date.now() + 3_600_000;
    return read<LatestPower | null>(
      api.GET('/api/v1/timeseries/electricity/latest-power', {
        params: {
          query: {
            account_id: current.id,
            meter_sn: meter.meter_sn,
            start: new Date(end - LATEST_WITHIN_DAYS * 86_400_000).toISOString(),
            end: new Date(end).toISOString(),
          },
        },
      }),
    );
  }, [current.id, meter.meter_sn]);
  return (
    <section aria-labelledby="latest-heading">
      <h2 id="latest-heading">Latest power</h2>
      <Async resource={latest} label="Loading the latest power…">
        {(point) =>
          point ? (
            <div className="card" data-testid="latest-power">
              <strong>{formatNumber(point.power_kw)} kW</strong> · {formatNumber(point.kva)} kVA
              <div className="muted">at {formatDateTime(point.ts, tz)}</div>
            </div>
          ) : (
            <p className="muted">No reading in the last {LATEST_WITHIN_DAYS} days.</p>
          )
        }
      </Async>
    </section>
  );
}

function ProfileSection({ meter }: { meter: Meter }) {
  const { current, tz } = useOrganization();
  const { query } = useLocation();
  const queryText = query.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query's text names the range.
  const range = useMemo(() => rangeFromQuery(query, tz, () => lastWeekOfDays(tz)), [queryText, tz]);
  const profile = useResource(
    async () =>
      (await meterEnergyProfile(current.id, meter.meter_sn, range)).map(
        ({ ts, import_kwh, export_kwh, net_kwh }): BuildingEnergyRow => ({
          ts,
          sources: { grid: { import_kwh, export_kwh, net_kwh } },
        }),
      ),
    [current.id, meter.meter_sn, range.start, range.end, range.unit],
  );
  return (
    <section aria-labelledby="profile-heading">
      <h2 id="profile-heading">Energy profile</h2>
      <RangePicker key={queryText} range={range} onChange={(r) => setQuery(queryOfRange(r))} />
      <Async resource={profile} label="Loading the profile…">
        {(rows) => (
          <EnergyChart rows={rows} series={METER_SERIES} range={range} title={`Energy of ${meter.meter_sn}`} />
        )}
      </Async>
      <p className="muted" style={{ fontSize: '0.85rem' }}>
        Times in {tz}. Exported energy is drawn below zero. Readings up to the start of the current hour.
      </p>
    </section>
  );
}

export function MeterPage({ id }: { id: number }) {
  const { current, canWrite } = useOrganization();
  const meter = useResource(
    () => read<Meter>(api.GET('/api/v1/meters/{id}', { params: { path: { id }, query: { account_id: current.id } } })),
    [id, current.id],
  );
  useEffect(() => {
    if (meter.data) document.title = `${meter.data.meter_sn} · Utility Management Console`;
  }, [meter.data]);
  return (
    <Async resource={meter} label="Loading the meter…">
      {(m) => (
        <>
          <p style={{ margin: '0 0 0.5rem' }}>
            <Link href={`/buildings/${m.building_block_id}`}>‹ Building</Link>
          </p>
          <h1>{meterLabel(m)}</h1>
          {canWrite && (
            <p className="actions">
              <Link className="button secondary" href={`/meters/${m.id}/edit`}>
                Edit meter
              </Link>
            </p>
          )}
          <dl className="facts">
            <dt>Type</dt>
            <dd>{meterTypeLabel(m.meter_type)}</dd>
            <dt>Interval</dt>
            <dd>{m.interval_minutes} minutes</dd>
            <dt>Tariff</dt>
            <dd>{m.tariff_id === null ? 'none' : <TariffLink id={m.tariff_id} accountId={current.id} />}</dd>
            <dt>Notified maximum demand</dt>
            <dd>{m.notified_max_demand_kva === null ? 'none' : `${m.notified_max_demand_kva} kVA`}</dd>
            <dt>Installed on</dt>
            <dd>{m.installed_on ?? 'the day of its first reading'}</dd>
            <dt>Active</dt>
            <dd>{m.is_active ? 'yes' : 'no'}</dd>
          </dl>
          {hasElectricityData(m) ? (
            <>
              <LatestPowerCard meter={m} />
              <ProfileSection meter={m} />
            </>
          ) : m.meter_type === 'WATER' ? (
            <WaterMeterSection meter={m} />
          ) : (
            <p className="muted">This meter's readings are not electricity readings: there is no profile to show.</p>
          )}
        </>
      )}
    </Async>
  );
}
