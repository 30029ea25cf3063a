import type { Executor } from '../db/types.ts';
import { tariffsRepository } from '../modules/tariffs/tariffs.repository.ts';
import { transitionsRepository } from '../modules/transitions/transitions.repository.ts';
import { cloneHomeflexWithFeedIn } from './demo-tariffs.ts';

/** Eskom's tariff year starts on 1 April, local time (Africa/Johannesburg, UTC+2). */
const LOCAL_OFFSET_MS = 2 * 3_600_000;

/** The first 1 April (local midnight) after now: its date and the instant. */
export function nextTariffYear(now: Date): { year: number; startsAt: Date } {
  const local = new Date(now.getTime() + LOCAL_OFFSET_MS);
  const year = local.getUTCMonth() >= 3 ? local.getUTCFullYear() + 1 : local.getUTCFullYear();
  return { year, startsAt: new Date(Date.UTC(year, 3, 1) - LOCAL_OFFSET_MS) };
}

/**
 * The grid tariff's successor for the next tariff year, and the pending transition to it (the
 * service applies it on 1 April): the demo shows a tariff change before it happens. Next year's
 * prices are not published yet, so the successor starts with this year's.
 */
export async function seedDemoTransition(
  tx: Executor,
  accountId: string,
  gridTariffId: number,
  ownerId: string,
  now: Date,
): Promise<number> {
  const { year, startsAt } = nextTariffYear(now);
  const successor = await cloneHomeflexWithFeedIn(tx, accountId, `Eskom Homeflex 1 ${year}/${(year + 1) % 100}`);
  await tariffsRepository.update(
    tx,
    successor.id,
    accountId,
    {
      effective_from: `${year}-04-01`,
      effective_to: `${year + 1}-03-31`,
      notes: "This year's prices until next year's are published",
    },
    ownerId,
  );
  await transitionsRepository.insert(tx, {
    accountId,
    predecessorId: gridTariffId,
    successorId: successor.id,
    effectiveFrom: startsAt.toISOString(),
    notes: `Eskom's prices change on 1 April ${year}`,
    createdBy: ownerId,
  });
  return successor.id;
}
