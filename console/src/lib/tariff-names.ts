import { api, read } from '../api/client.ts';
import type { Tariff } from '../api/models.ts';

const names = new Map<string, Promise<string>>();

/** A tariff's name, asked once per tariff and kept (a failed answer is asked again next time). */
export function tariffName(id: number, accountId: string, catalogue: boolean): Promise<string> {
  const key = `${catalogue ? 'catalogue' : accountId}/${id}`;
  let name = names.get(key);
  if (!name) {
    const call = catalogue
      ? api.GET('/api/v1/tariffs/catalogue/{id}', { params: { path: { id } } })
      : api.GET('/api/v1/tariffs/{id}', { params: { path: { id }, query: { account_id: accountId } } });
    name = read<Tariff>(call).then(
      (tariff) => tariff.name,
      (error: unknown) => {
        names.delete(key);
        throw error;
      },
    );
    names.set(key, name);
  }
  return name;
}

/** The names of tariffs by id; a tariff that cannot be read is named by its number. */
export async function tariffNames(ids: number[], accountId: string): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  const names = await Promise.all(unique.map((id) => tariffName(id, accountId, false).catch(() => `tariff ${id}`)));
  return new Map(unique.map((id, i) => [id, names[i]!]));
}
