import { useEffect, useState } from 'react';
import { api, done, read, readAll } from '../api/client.ts';
import type { Gateway, GatewayWithKey, Meter } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { formatDateTime } from '../lib/format.ts';
import { isSilent } from '../lib/gateways.ts';
import { meterLabel } from '../lib/meters.ts';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { Field, Refusal, SetupForm, textOf, useAction } from './form-kit.tsx';
import { GatewayKey } from './gateway-key.tsx';

interface Loaded {
  gateways: Gateway[];
  meters: Meter[];
}

function GatewayRow({
  gateway,
  meters,
  onKey,
  onChanged,
}: {
  gateway: Gateway;
  meters: Map<number, Meter>;
  onKey: (gateway: GatewayWithKey) => void;
  onChanged: () => void;
}) {
  const { current, canWrite, tz } = useOrganization();
  const params = { path: { id: gateway.id }, query: { account_id: current.id } };
  const rotate = useAction(async () => {
    if (!window.confirm(`Give ${gateway.name} a new key? The current one stops working at once.`)) return;
    onKey(await read<GatewayWithKey>(api.POST('/api/v1/gateways/{id}/rotate-key', { params })));
    onChanged();
  });
  const remove = useAction(async () => {
    if (!window.confirm(`Delete ${gateway.name}? Its key stops working at once; its readings stay.`)) return;
    await done(api.DELETE('/api/v1/gateways/{id}', { params }));
    onChanged();
  });
  const silent = isSilent(gateway, Date.now());
  return (
    <tr data-gateway={gateway.name}>
      <th scope="row" style={{ fontWeight: 400 }}>
        {gateway.name}
        {gateway.description && <div className="muted">{gateway.description}</div>}
      </th>
      <td>
        {gateway.meter_ids.length === 0
          ? 'None'
          : gateway.meter_ids.map((id) => (meters.get(id) ? meterLabel(meters.get(id)!) : `Meter ${id}`)).join(', ')}
      </td>
      <td data-testid="last-seen">
        {gateway.last_seen_at ? `Last seen ${formatDateTime(gateway.last_seen_at, tz)}` : 'Never seen'}
        {silent && <div className="notice">Silent for more than a day</div>}
      </td>
      <td>
        {canWrite && (
          <div className="row">
            <button type="button" className="secondary" disabled={rotate.busy} onClick={() => void rotate.run()}>
              Rotate key<span className="visually-hidden"> of {gateway.name}</span>
            </button>
            <button type="button" className="secondary" disabled={remove.busy} onClick={() => void remove.run()}>
              Delete<span className="visually-hidden"> {gateway.name}</span>
            </button>
          </div>
        )}
        <Refusal error={rotate.error ?? remove.error} />
      </td>
    </tr>
  );
}

function NewGateway({ meters, onCreated }: { meters: Meter[]; onCreated: (gateway: GatewayWithKey) => void }) {
  const { current } = useOrganization();
  const create = async (data: FormData) => {
    const gateway = await read<GatewayWithKey>(
      api.POST('/api/v1/gateways', {
        body: {
          account_id: current.id,
          name: textOf(data, 'name') ?? '',
          description: textOf(data, 'description'),
          meter_ids: data.getAll('meter_ids').map(Number),
        },
      }),
    );
    onCreated(gateway);
  };
  return (
    <section aria-labelledby="new-gateway-heading">
      <h2 id="new-gateway-heading">New gateway</h2>
      <SetupForm label="New gateway" submit="Create gateway" busyLabel="Creating…" onSubmit={create}>
        <Field label="Name" name="name" required maxLength={200} />
        <Field label="Description" name="description" maxLength={2000} hint="Where it is, what it reads" />
        <fieldset className="field">
          <legend>Meters it pushes readings of</legend>
          {meters.length === 0 && <p className="muted">The organization has no meters yet.</p>}
          {meters.map((meter) => (
            <label key={meter.id} className="check">
              <input type="checkbox" name="meter_ids" value={meter.id} /> {meterLabel(meter)}
            </label>
          ))}
        </fieldset>
      </SetupForm>
    </section>
  );
}

/** The organization's gateways: when each was last seen; "New gateway" shows its key once, rotate, delete. */
export function GatewaysPage() {
  const { current, canWrite } = useOrganization();
  const [shown, setShown] = useState<GatewayWithKey | null>(null);
  useEffect(() => {
    document.title = `Gateways · Utility Management Console`;
  }, []);
  const account_id = current.id;
  const loaded = useResource<Loaded>(async () => {
    const [gateways, meters] = await Promise.all([
      readAll<Gateway>((page) =>
        api.GET('/api/v1/gateways', {
          params: { query: { account_id, page, limit: 100, sortBy: 'name', sortOrder: 'asc' } },
        }),
      ),
      readAll<Meter>((page) => api.GET('/api/v1/meters', { params: { query: { account_id, page, limit: 100 } } })),
    ]);
    return { gateways, meters };
  }, [account_id]);
  return (
    <>
      <h1>Gateways</h1>
      <p>
        A gateway is a data logger on site: it pushes the readings of its meters with a key of its own, over HTTP or
        MQTT.
      </p>
      <Async resource={loaded} label="Loading the gateways…">
        {({ gateways, meters }) => {
          const byId = new Map(meters.map((m) => [m.id, m]));
          const firstMeter = shown && byId.get(shown.meter_ids[0] ?? -1);
          return (
            <>
              {shown && <GatewayKey gateway={shown} meterSn={firstMeter ? firstMeter.meter_sn : 'METER-SERIAL'} />}
              {gateways.length === 0 ? (
                <p className="muted">No gateways yet.</p>
              ) : (
                <div className="table-wrap">
                  <table data-testid="gateways">
                    <caption className="visually-hidden">Gateways of {current.name}</caption>
                    <thead>
                      <tr>
                        <th scope="col">Gateway</th>
                        <th scope="col">Meters</th>
                        <th scope="col">Last seen</th>
                        <th scope="col">
                          <span className="visually-hidden">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {gateways.map((g) => (
                        <GatewayRow key={g.id} gateway={g} meters={byId} onKey={setShown} onChanged={loaded.reload} />
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              {canWrite && (
                <NewGateway
                  meters={meters}
                  onCreated={(gateway) => {
                    setShown(gateway);
                    loaded.reload();
                  }}
                />
              )}
            </>
          );
        }}
      </Async>
    </>
  );
}
