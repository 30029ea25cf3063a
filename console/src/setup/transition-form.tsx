import { useState } from 'react';
import { api, done, read, readOrNull } from '../api/client.ts';
import type { Tariff, Transition } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { formatDateTime } from '../lib/format.ts';
import { Link } from '../lib/router.tsx';
import { instantOf, parseIsoDate } from '../lib/time.ts';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { Choice, DayField, Field, Refusal, SetupForm, textOf, useAction } from './form-kit.tsx';

function loadTransition(tariffId: number, accountId: string): Promise<Transition | null> {
  return readOrNull<Transition>(
    api.GET('/api/v1/tariffs/{id}/transitions', {
      params: { path: { id: tariffId }, query: { account_id: accountId } },
    }),
  );
}

/** The tariff's transition to a successor, or "New transition". */
export function Transitions({ tariff, tariffs }: { tariff: Tariff; tariffs: Tariff[] }) {
  const { current } = useOrganization();
  // Asked for only while there is one: the GET answers 404 without.
  const [present, setPresent] = useState(tariff.has_transition);
  const transition = useResource(
    () => (present ? loadTransition(tariff.id, current.id) : Promise.resolve(null)),
    [present, tariff.id, current.id],
  );
  const remove = useAction(async () => {
    await done(
      api.DELETE('/api/v1/tariffs/{id}/transitions', {
        params: { path: { id: tariff.id }, query: { account_id: current.id } },
      }),
    );
    if (present) setPresent(false);
    else transition.reload();
  });
  const create = async (data: FormData) => {
    const date = parseIsoDate(textOf(data, 'effective_from'));
    if (!date) throw new Error('Choose the day from which the successor applies.');
    await read(
      api.POST('/api/v1/tariffs/{id}/transitions', {
        params: { path: { id: tariff.id } },
        body: {
          account_id: current.id,
          successor_id: Number(textOf(data, 'successor_id')),
          effective_from: new Date(instantOf(date, tariff.timezone)).toISOString(),
          notes: textOf(data, 'notes') ?? undefined,
        },
      }),
    );
    if (present) transition.reload();
    else setPresent(true);
  };
  const others = tariffs.filter((t) => t.id !== tariff.id);
  const nameOf = (id: number) => tariffs.find((t) => t.id === id)?.name ?? `tariff ${id}`;
  return (
    <section aria-labelledby="transition-heading">
      <h2 id="transition-heading">Transition</h2>
      <Async resource={transition} label="Loading the transition…">
        {(found) =>
          found ? (
            <div data-testid="transition">
              <p>
                From {formatDateTime(found.effective_from, tariff.timezone)}, meters and dashboards on this tariff move
                to <Link href={`/tariffs/${found.successor_id}`}>{nameOf(found.successor_id)}</Link>
                {found.applied_at ? ' (applied).' : '.'}
              </p>
              {!found.applied_at && (
                <button type="button" className="danger" disabled={remove.busy} onClick={() => void remove.run()}>
                  Delete transition
                </button>
              )}
              <Refusal error={remove.error} />
            </div>
          ) : others.length === 0 ? (
            <p className="muted">A transition needs a successor: create another tariff first.</p>
          ) : (
            <>
              <h3>New transition</h3>
              <p className="muted">
                From the day chosen, every meter and dashboard on this tariff moves to its successor.
              </p>
              <SetupForm label="New transition" submit="Create transition" busyLabel="Creating…" onSubmit={create}>
                <Choice
                  label="Successor"
                  name="successor_id"
                  options={others.map((t) => ({ value: String(t.id), label: t.name }))}
                />
                <DayField label="Effective from" name="effective_from" required />
                <Field label="Notes" name="notes" maxLength={2000} />
              </SetupForm>
            </>
          )
        }
      </Async>
    </section>
  );
}
