import { api, read } from '../api/client.ts';
import type { Tariff } from '../api/models.ts';

/** The tariffs of a meter type (electricity unless named) one may compare or refer to: the organization's, then the catalogue's. */
export async function candidateTariffs(
  accountId: string,
  meterType: Tariff['meter_type'] = 'ELECTRICITY',
): Promise<{ tariff: Tariff; catalogue: boolean }[]> {
  const [own, catalogue] = await Promise.all([
    read<Tariff[]>(api.GET('/api/v1/tariffs', { params: { query: { account_id: accountId, limit: 100 } } })),
    read<Tariff[]>(
      api.GET('/api/v1/tariffs/catalogue', { params: { query: { limit: 100, sortBy: 'name', sortOrder: 'asc' } } }),
    ),
  ]);
  const ofType = (t: Tariff) => t.meter_type === meterType;
  return [
    ...own.filter(ofType).map((tariff) => ({ tariff, catalogue: false })),
    ...catalogue.filter(ofType).map((tariff) => ({ tariff, catalogue: true })),
  ];
}

/** Tick the tariffs to compare; none ticked compares those the building may take. */
export function CandidatePicker({
  candidates,
  chosen,
  onChange,
}: {
  candidates: { tariff: Tariff; catalogue: boolean }[];
  chosen: Set<number>;
  onChange: (chosen: Set<number>) => void;
}) {
  const toggle = (id: number) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  return (
    <details className="candidates">
      <summary>
        Candidate tariffs:{' '}
        {chosen.size === 0 ? 'those of the current supplier this building may take' : `${chosen.size} chosen`}
      </summary>
      <fieldset>
        <legend className="visually-hidden">Candidate tariffs</legend>
        <p className="muted" style={{ margin: '0.25rem 0' }}>
          Tick the tariffs to compare, whether the building may take them or not; with none ticked, the current
          supplier's tariffs in force that the building may take are compared, one version of each.
        </p>
        {candidates.map(({ tariff, catalogue }) => (
          <label key={tariff.id} className="check">
            <input
              type="checkbox"
              data-tariff-id={tariff.id}
              checked={chosen.has(tariff.id)}
              onChange={() => toggle(tariff.id)}
            />
            {tariff.name}
            <span className="muted"> ({catalogue ? 'catalogue' : 'yours'})</span>
          </label>
        ))}
      </fieldset>
    </details>
  );
}
