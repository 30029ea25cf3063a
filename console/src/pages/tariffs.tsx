import { useEffect } from 'react';
import { api, envelope } from '../api/client.ts';
import type { Tariff } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { TariffTable } from '../components/tariff-table.tsx';
import { Link } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';

/** The organization's tariffs (the first hundred, by name). */
export function TariffsPage() {
  const { current, canWrite } = useOrganization();
  const tariffs = useResource(
    () =>
      envelope<Tariff[]>(
        api.GET('/api/v1/tariffs', {
          params: { query: { account_id: current.id, limit: 100, sortBy: 'name', sortOrder: 'asc' } },
        }),
      ),
    [current.id],
  );
  useEffect(() => {
    document.title = 'Tariffs · Utility Management Console';
  }, []);
  return (
    <>
      <h1>Tariffs</h1>
      <p>
        The tariffs of {current.name}. <Link href="/catalogue">Search the catalogue</Link> to clone a published tariff.
      </p>
      {canWrite && (
        <p className="actions">
          <Link className="button" href="/tariffs/new">
            New tariff
          </Link>
        </p>
      )}
      <Async resource={tariffs} label="Loading tariffs…">
        {({ data, count }) =>
          data.length === 0 ? (
            <p className="muted">No tariffs yet.</p>
          ) : (
            <>
              <p className="muted" data-testid="tariff-count" data-count={count}>
                {count} {count === 1 ? 'tariff' : 'tariffs'}
              </p>
              <TariffTable tariffs={data} hrefOf={(t) => `/tariffs/${t.id}`} caption={`Tariffs of ${current.name}`} />
            </>
          )
        }
      </Async>
    </>
  );
}
