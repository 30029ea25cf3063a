import { useEffect } from 'react';
import { api, read } from '../api/client.ts';
import type { Tariff, TariffItem, TariffItemType, TouSchedule } from '../api/models.ts';
import { CloneButton } from '../components/clone-button.tsx';
import { Async } from '../components/status.tsx';
import { TableWrap } from '../components/table-wrap.tsx';
import { TariffLink } from '../components/tariff-link.tsx';
import { demandBasisText, priceUnit } from '../lib/bill-lines.ts';
import { formatAxisNumber, formatPrice, formatUnitPrice, titleCase } from '../lib/format.ts';
import { itemName, itemTypes } from '../lib/item-types.ts';
import { meterTypeLabel } from '../lib/labels.ts';
import { Link, useLocation } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { TouGrids } from '../tariffs/tou-grid-view.tsx';

type TariffSource = 'organization' | 'catalogue';

function loadTariff(source: TariffSource, id: number, accountId: string): Promise<Tariff> {
  return source === 'catalogue'
    ? read<Tariff>(api.GET('/api/v1/tariffs/catalogue/{id}', { params: { path: { id } } }))
    : read<Tariff>(api.GET('/api/v1/tariffs/{id}', { params: { path: { id }, query: { account_id: accountId } } }));
}

function loadSchedule(source: TariffSource, tariff: Tariff, accountId: string): Promise<TouSchedule> {
  if (source === 'organization') {
    return read<TouSchedule>(
      api.GET('/api/v1/tariffs/{id}/schedule', {
        params: { path: { id: tariff.id }, query: { account_id: accountId } },
      }),
    );
  }
  // The contract's default schedule when a tariff names none.
  const id = tariff.tou_schedule_id ?? 3;
  return read<TouSchedule>(api.GET('/api/v1/tou_schedules/{id}', { params: { path: { id } } }));
}

function ItemsTable({
  items,
  types,
  currency,
}: {
  items: TariffItem[];
  types: Map<string, TariffItemType>;
  currency: string;
}) {
  if (items.length === 0) return <p className="muted">This tariff has no items.</p>;
  return (
    <TableWrap>
      <table>
        <caption className="visually-hidden">Items of the tariff</caption>
        <thead>
          <tr>
            <th scope="col">Charge</th>
            <th scope="col">Season</th>
            <th scope="col" className="number">
              Price
            </th>
            <th scope="col">Tiers</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const unit = item.unit ?? types.get(item.item_type_code)?.unit ?? '';
            return (
              <tr key={item.id}>
                <th scope="row" style={{ fontWeight: 400 }}>
                  {itemName(types, item.item_type_code)}
                </th>
                <td>{titleCase(item.season)}</td>
                <td className="number">
                  {item.tariff_blocks.length > 0 ? '–' : formatUnitPrice(item.price, currency, priceUnit(unit))}
                  {demandBasisText({ ...item, unit }) && (
                    <div className="muted" style={{ fontSize: '0.85rem' }}>
                      {demandBasisText({ ...item, unit })}
                    </div>
                  )}
                </td>
                <td>
                  {item.tariff_blocks.length === 0 ? (
                    <span className="muted">none</span>
                  ) : (
                    <ol style={{ margin: 0, paddingLeft: '1.2rem' }}>
                      {item.tariff_blocks.map((b) => (
                        <li key={b.id}>
                          {b.upper_limit === null ? 'above' : `up to ${formatAxisNumber(b.upper_limit)} kWh`}:{' '}
                          {formatPrice(b.unit_price_cents)} c/kWh
                        </li>
                      ))}
                    </ol>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}

function TariffView({ tariff, source }: { tariff: Tariff; source: TariffSource }) {
  const { current, canWrite } = useOrganization();
  const { query } = useLocation();
  const types = useResource(itemTypes, []);
  const isTou = tariff.tariff_type === 'TIME_OF_USE';
  const schedule = useResource(
    () => (isTou ? loadSchedule(source, tariff, current.id) : Promise.resolve(null)),
    [source, tariff.id, current.id],
  );
  useEffect(() => {
    document.title = `${tariff.name} · Utility Management Console`;
  }, [tariff.name]);

  return (
    <>
      <p style={{ margin: '0 0 0.5rem' }}>
        <Link href={source === 'catalogue' ? '/catalogue' : '/tariffs'}>
          ‹ {source === 'catalogue' ? 'Catalogue' : 'Tariffs'}
        </Link>
      </p>
      {query.get('cloned') && (
        <p className="success" role="status">
          Cloned from the catalogue into {current.name}.
        </p>
      )}
      <h1>{tariff.name}</h1>
      {tariff.description && <p>{tariff.description}</p>}
      {source === 'catalogue' && <CloneButton tariff={tariff} />}
      {source === 'organization' && canWrite && (
        <p className="actions">
          <Link className="button secondary" href={`/tariffs/${tariff.id}/edit`}>
            Edit tariff
          </Link>
        </p>
      )}
      <dl className="facts">
        <dt>Type</dt>
        <dd>{titleCase(tariff.tariff_type)}</dd>
        <dt>Meters</dt>
        <dd>{meterTypeLabel(tariff.meter_type)}</dd>
        <dt>Provider</dt>
        <dd>{tariff.dso?.name ?? 'none'}</dd>
        <dt>Effective</dt>
        <dd>
          {tariff.effective_from} to {tariff.effective_to}
        </dd>
        <dt>Currency, tax</dt>
        <dd>
          {tariff.currency}, {tariff.tax_rate}% tax
        </dd>
        <dt>Time zone</dt>
        <dd>{tariff.timezone}</dd>
        {tariff.cloned_from !== null && (
          <>
            <dt>Cloned from</dt>
            <dd>
              <TariffLink id={tariff.cloned_from} accountId={current.id} catalogue />
            </dd>
          </>
        )}
      </dl>
      {tariff.notes && <p className="muted">{tariff.notes}</p>}
      <h2>Items and tiers</h2>
      <Async resource={types} label="Loading the items…">
        {(names) => <ItemsTable items={tariff.tariff_items ?? []} types={names} currency={tariff.currency} />}
      </Async>
      {isTou && (
        <section aria-labelledby="schedule-heading">
          <h2 id="schedule-heading">Time-of-use schedule</h2>
          <Async resource={schedule} label="Loading the schedule…">
            {(found) => found && <TouGrids schedule={found} />}
          </Async>
        </section>
      )}
    </>
  );
}

/** A tariff of the organization or of the catalogue: its facts, items and tiers, and its schedule. */
export function TariffPage({ id, source }: { id: number; source: TariffSource }) {
  const { current } = useOrganization();
  const tariff = useResource(() => loadTariff(source, id, current.id), [source, id, current.id]);
  return (
    <Async resource={tariff} label="Loading the tariff…">
      {(t) => <TariffView tariff={t} source={source} />}
    </Async>
  );
}
