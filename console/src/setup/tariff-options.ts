import { api, readAll } from '../api/client.ts';
import type { Tariff } from '../api/models.ts';
import type { Option } from './form-kit.tsx';

/** Every tariff of the organization, by name. */
export async function allTariffs(accountId: string): Promise<Tariff[]> {
  const tariffs = await readAll<Tariff>((page) =>
    api.GET('/api/v1/tariffs', {
      params: { query: { account_id: accountId, page, limit: 100, sortBy: 'name', sortOrder: 'asc' } },
    }),
  );
  return tariffs;
}

/** A choice of tariff, "none" first. */
export function tariffOptions(tariffs: Tariff[], none = 'None'): Option[] {
  return [{ value: '', label: none }, ...tariffs.map((t) => ({ value: String(t.id), label: t.name }))];
}
