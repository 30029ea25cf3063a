import { useState } from 'react';
import { api, read } from '../api/client.ts';
import type { Tariff } from '../api/models.ts';
import { navigate } from '../lib/router.tsx';
import { useOrganization } from '../organization.tsx';
import { ErrorMessage } from './status.tsx';

function cloneTariff(catalogueId: number, accountId: string): Promise<Tariff> {
  return read<Tariff>(
    api.POST('/api/v1/tariffs/catalogue/{id}/clone', {
      params: { path: { id: catalogueId } },
      body: { account_id: accountId },
    }),
  );
}

/** Clones a catalogue tariff into the organization, then shows the copy. */
export function CloneButton({ tariff, compact = false }: { tariff: Tariff; compact?: boolean }) {
  const { current, canWrite, tariffsChanged } = useOrganization();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const clone = async () => {
    setBusy(true);
    setError(null);
    try {
      const copy = await cloneTariff(tariff.id, current.id);
      // The organization's first tariff sets the zone its months and periods are in.
      tariffsChanged();
      navigate(`/tariffs/${copy.id}?cloned=${tariff.id}`);
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
    }
  };
  return (
    <div>
      <button
        type="button"
        className={compact ? 'secondary' : undefined}
        onClick={clone}
        disabled={busy || !canWrite}
        // A compact button in a list of tariffs names its tariff; the full one's page names it already.
        aria-label={compact ? `Clone ${tariff.name} into ${current.name}` : undefined}
      >
        {busy ? 'Cloning…' : compact ? 'Clone' : `Clone into ${current.name}`}
      </button>
      {!canWrite && !compact && <p className="muted">Only owners and administrators may clone into {current.name}.</p>}
      {error && <ErrorMessage error={error} />}
    </div>
  );
}
