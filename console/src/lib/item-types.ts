import { api, read } from '../api/client.ts';
import type { TariffItemType } from '../api/models.ts';
import { titleCase } from './format.ts';

let loading: Promise<Map<string, TariffItemType>> | null = null;

/** The tariff item types (reference data), loaded once. */
export function itemTypes(): Promise<Map<string, TariffItemType>> {
  loading ??= read<TariffItemType[]>(api.GET('/api/v1/tariff_item_types')).then(
    (types) => new Map(types.map((type) => [type.code, type])),
    (error) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

export function itemName(types: Map<string, TariffItemType>, code: string): string {
  return types.get(code)?.displayName ?? titleCase(code);
}
