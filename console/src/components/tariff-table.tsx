import type { ReactNode } from 'react';
import type { Tariff } from '../api/models.ts';
import { titleCase } from '../lib/format.ts';
import { meterTypeLabel } from '../lib/labels.ts';
import { Link } from '../lib/router.tsx';

/** Tariffs in a table: name (a link), type, meters, provider and dates, and an action per row. */
export function TariffTable({
  tariffs,
  hrefOf,
  caption,
  action,
}: {
  tariffs: Tariff[];
  hrefOf: (tariff: Tariff) => string;
  caption: string;
  action?: (tariff: Tariff) => ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Effective</th>
            {action && (
              <th scope="col">
                <span className="visually-hidden">Action</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {tariffs.map((t) => (
            <tr key={t.id} data-tariff-id={t.id}>
              <th scope="row" style={{ fontWeight: 400 }}>
                <Link href={hrefOf(t)}>{t.name}</Link>
                <div className="muted" style={{ fontSize: '0.85rem' }}>
                  {meterTypeLabel(t.meter_type)} · {t.currency}
                  {t.is_active ? '' : ' · inactive'}
                </div>
              </th>
              <td>{titleCase(t.tariff_type)}</td>
              <td>
                {t.effective_from} to {t.effective_to}
              </td>
              {action && <td>{action(t)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
