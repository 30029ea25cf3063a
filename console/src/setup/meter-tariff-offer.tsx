import { createContext, useContext } from 'react';
import { api, read } from '../api/client.ts';
import type { EnergySource, Meter, Tariff } from '../api/models.ts';
import { Link } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { loadConfig, saveConfig } from './dashboard-config.ts';
import { Refusal, useAction } from './form-kit.tsx';

/** The block whose dashboard is shown, and what to do once its config changed. */
export const DashboardBlock = createContext<{ blockId: number; configChanged: () => void } | null>(null);

async function meterTariffOf(blockId: number, accountId: string, source: EnergySource) {
  const config = await loadConfig(blockId, accountId);
  const meterId = config?.[`${source}_meter_id`];
  if (meterId === null || meterId === undefined) return null;
  const query = { account_id: accountId };
  const meter = await read<Meter>(api.GET('/api/v1/meters/{id}', { params: { path: { id: meterId }, query } }));
  if (meter.tariff_id === null) return null;
  const tariff = await read<Tariff>(
    api.GET('/api/v1/tariffs/{id}', { params: { path: { id: meter.tariff_id }, query } }),
  );
  return { meter, tariff };
}

/**
 * Beside a source that the config prices with no tariff: when its meter has a tariff of its own,
 * one click makes the config use it; otherwise where to choose one.
 */
export function MeterTariffOffer({ source }: { source: EnergySource }) {
  const dashboard = useContext(DashboardBlock);
  const { current, canWrite } = useOrganization();
  const blockId = dashboard?.blockId ?? 0;
  const found = useResource(() => meterTariffOf(blockId, current.id, source), [blockId, current.id, source]);
  const use = useAction(async (tariffId: number) => {
    await saveConfig(blockId, current.id, { [`${source}_tariff_id`]: tariffId });
    dashboard?.configChanged();
  });
  if (!dashboard || !canWrite || found.status !== 'ready') return null;
  const edit = <Link href={`/buildings/${blockId}/dashboard`}>Edit dashboard</Link>;
  if (!found.data)
    return (
      <p className="hint">
        Choose a tariff for {source} in {edit}.
      </p>
    );
  const { meter, tariff } = found.data;
  return (
    <div className="hint" data-testid={`meter-tariff-offer-${source}`}>
      <p style={{ margin: '0.25rem 0' }}>
        The dashboard names no {source} tariff, but meter {meter.meter_sn} has its own: {tariff.name}. The building's
        cost is priced with the dashboard's tariffs.
      </p>
      <button type="button" disabled={use.busy} onClick={() => void use.run(tariff.id)}>
        Use the meter's tariff ({tariff.name})
      </button>
      <Refusal error={use.error} />
    </div>
  );
}
