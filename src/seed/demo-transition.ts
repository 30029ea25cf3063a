import type { Executor } from '../db/types.ts';
import { tariffHistoryRepository } from '../modules/tariff-history/tariff-history.repository.ts';
import { tariffsRepository } from '../modules/tariffs/tariffs.repository.ts';
import { applyTransition } from '../modules/transitions/transition-application.ts';
import { transitionsRepository } from '../modules/transitions/transitions.repository.ts';
import { cloneHomeflexWithFeedIn } from './demo-tariffs.ts';

/** Eskom's tariff year starts on 1 April, local time (Africa/Johannesburg, UTC+2). */
const LOCAL_OFFSET_MS = 2 * 3_600_000;

/** The catalogue's Homeflex 1 of each tariff year it holds (ids fixed by migrations 0004 and 0012). */
const CATALOGUE_HOMEFLEX = new Map([
  [2025, 6],
  [2026, 17],
]);
/** The tariff year of the demo's first grid tariff (seedDemoTariffs). */
const FIRST_YEAR = 2025;
const LAST_PUBLISHED_YEAR = Math.max(...CATALOGUE_HOMEFLEX.keys());

/** The instant 1 April of `year` begins (local midnight). */
function tariffYearStart(year: number): Date {
  return new Date(Date.UTC(year, 3, 1) - LOCAL_OFFSET_MS);
}

/** The first 1 April (local midnight) after now: its date and the instant. */
export function nextTariffYear(now: Date): { year: number; startsAt: Date } {
  const local = new Date(now.getTime() + LOCAL_OFFSET_MS);
  const year = local.getUTCMonth() >= 3 ? local.getUTCFullYear() + 1 : local.getUTCFullYear();
  return { year, startsAt: tariffYearStart(year) };
}

/**
 * The grid tariff of a tariff year: a clone of the catalogue's Homeflex 1 of that year, else (its
 * prices not published yet) of the last one published, dated for the year.
 */
async function homeflexOfYear(tx: Executor, accountId: string, year: number, ownerId: string): Promise<number> {
  const published = CATALOGUE_HOMEFLEX.get(year);
  if (published !== undefined) return (await cloneHomeflexWithFeedIn(tx, accountId, published)).id;
  const lastYear = Math.min(year - 1, LAST_PUBLISHED_YEAR);
  const name = `Eskom Homeflex 1 ${year}/${String((year + 1) % 100).padStart(2, '0')}`;
  const sourceId = CATALOGUE_HOMEFLEX.get(lastYear)!;
  const { family } = (await tariffsRepository.find(tx, sourceId))!;
  // Outside the family until dated for its year: the copy of the last year's version overlaps it.
  const tariff = await cloneHomeflexWithFeedIn(tx, accountId, sourceId, { name, family: null });
  await tariffsRepository.update(
    tx,
    tariff.id,
    accountId,
    {
      effective_from: `${year}-04-01`,
      effective_to: `${year + 1}-03-31`,
      family,
      notes: `The ${lastYear}/${String((lastYear + 1) % 100).padStart(2, '0')} prices until this year's are published`,
    },
    ownerId,
  );
  return tariff.id;
}

/** The grid meter's tariff now, and the successor of its pending transition. */
interface DemoTariffYears {
  currentTariffId: number;
  nextTariffId: number;
}

/**
 * One tariff per Eskom tariff year after the first, up to the next one, each the `successor` of
 * the year before from 1 April (local midnight). The transitions already due are applied as the
 * scheduler would (the meter and the config switch, the history records each from its 1 April),
 * so that every month of the readings is priced with the tariff of its year; the last one is
 * pending: the demo shows a tariff change before it happens.
 */
export async function seedDemoTransitions(
  tx: Executor,
  accountId: string,
  firstTariffId: number,
  ownerId: string,
  now: Date,
): Promise<DemoTariffYears> {
  const lastYear = Math.max(nextTariffYear(now).year, FIRST_YEAR + 1);
  let currentTariffId = firstTariffId;
  let predecessorId = firstTariffId;
  for (let year = FIRST_YEAR + 1; year <= lastYear; year++) {
    const successorId = await homeflexOfYear(tx, accountId, year, ownerId);
    const startsAt = tariffYearStart(year);
    const transition = await transitionsRepository.insert(tx, {
      accountId,
      predecessorId,
      successorId,
      effectiveFrom: startsAt.toISOString(),
      notes: `Eskom's prices change on 1 April ${year}`,
      createdBy: ownerId,
    });
    if (startsAt <= now) {
      await applyTransition(tx, transition!, now, tariffHistoryRepository);
      currentTariffId = successorId;
    }
    predecessorId = successorId;
  }
  return { currentTariffId, nextTariffId: predecessorId };
}
