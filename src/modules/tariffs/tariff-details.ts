import type { Executor } from '../../db/types.ts';
import { referenceRepository } from '../reference/reference.repository.ts';
import { tariffItemsRepository } from '../tariff-items/tariff-items.repository.ts';
import type { TariffRow } from './tariffs.repository.ts';

/** A tariff as single reads return it: with its items (each with its blocks) and its DSO or null. */
export async function tariffDetails(db: Executor, tariff: TariffRow) {
  const [tariffItems, dso] = await Promise.all([
    tariffItemsRepository.ofTariff(db, tariff.account_id, tariff.id),
    tariff.dso_id === null ? undefined : referenceRepository.findDso(db, tariff.dso_id),
  ]);
  return { ...tariff, tariff_items: tariffItems, dso: dso ?? null };
}
