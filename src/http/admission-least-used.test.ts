import { describe, expect, it } from 'vitest';
import { createAdmission } from './admission.ts';
import { RECENT_USE_HALF_LIFE_MS } from './recent-use.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

const ORG = '*';
const user = (userId: string) => ({ userId });

/** One slot (and `reserve` more) handed out by what requests cost lately, on a clock the test moves. */
function leastUsedFirst(reserve = 0) {
  const clock = { time: 10_000 };
  const admission = createAdmission({
    perOrganization: Number.POSITIVE_INFINITY,
    perUser: 2,
    total: 1,
    idleUserReserve: reserve,
    leastUsedFirst: true,
    maxRestMs: 0,
    waitMs: 60_000,
    now: () => clock.time,
  });
  const order: string[] = [];
  /** A request of the user that costs `cost` and runs until `until` resolves. */
  const request = (userId: string, name: string, cost: number, until: Promise<void> = Promise.resolve()) =>
    admission.admit(
      user(userId),
      ORG,
      async () => {
        order.push(name);
        await until;
      },
      undefined,
      () => cost,
    );
  return { clock, admission, order, request };
}

describe('admission by what requests cost lately', () => {
  it('hands a freed slot to the waiting user whose requests cost least lately, whatever the order of arrival', async () => {
    const { admission, order, request } = leastUsedFirst();
    await request('heavy', 'heavy-0', 50);
    await request('light', 'light-0', 1);
    const held = deferred();
    const running = request('other', 'other-0', 1, held.promise);
    const heavy = request('heavy', 'heavy-1', 50);
    const light = request('light', 'light-1', 1);
    expect(admission.load()).toEqual({ running: 1, waiting: 2 });
    held.resolve();
    await Promise.all([running, heavy, light]);
    expect(order).toEqual(['heavy-0', 'light-0', 'other-0', 'light-1', 'heavy-1']);
  });

  it('charges the ms a request held its slot when no cost is given, and lets use fade', async () => {
    const { clock, admission, order, request } = leastUsedFirst();
    await admission.admit(user('slow'), ORG, async () => {
      clock.time += 40;
    });
    await request('quick', 'quick-0', 5);
    const held = deferred();
    const running = request('other', 'other-0', 1, held.promise);
    const slow = request('slow', 'slow-1', 0);
    const quick = request('quick', 'quick-1', 0);
    held.resolve();
    await Promise.all([running, slow, quick]);
    expect(order).toEqual(['quick-0', 'other-0', 'quick-1', 'slow-1']);
    // Ten half-lives on, the 40 ms are 0.04: less than a cost of 5 charged since.
    clock.time += 10 * RECENT_USE_HALF_LIFE_MS;
    await request('quick', 'quick-2', 5);
    const heldAgain = deferred();
    const runningAgain = request('other', 'other-1', 1, heldAgain.promise);
    const quickLater = request('quick', 'quick-3', 0);
    const slowLater = request('slow', 'slow-2', 0);
    heldAgain.resolve();
    await Promise.all([runningAgain, slowLater, quickLater]);
    expect(order.slice(4)).toEqual(['quick-2', 'other-1', 'slow-2', 'quick-3']);
  });

  it('brings a user with nothing running or waiting back level with the least used of those who have: new users do not go first', async () => {
    const { order, request } = leastUsedFirst();
    await request('neighbour', 'neighbour-0', 50);
    const held = deferred();
    const running = request('neighbour', 'neighbour-1', 0, held.promise);
    const newcomers = ['n1a', 'n1b', 'n2a', 'n2b'].map((name) => request(name.slice(0, 2), name, 20));
    const neighbour = request('neighbour', 'neighbour-2', 0);
    held.resolve();
    await Promise.all([running, neighbour, ...newcomers]);
    // Not raised, the newcomers (0, then 20) would all go before the neighbour (50).
    expect(order).toEqual(['neighbour-0', 'neighbour-1', 'neighbour-2', 'n1a', 'n2a', 'n1b', 'n2b']);
  });

  it('starts at once, from the reserve, the request of a user no more used than any other with requests running or waiting', async () => {
    const { admission, order, request } = leastUsedFirst(1);
    await request('flood-a', 'flood-a-0', 50);
    await request('flood-b', 'flood-b-0', 60);
    await request('neighbour', 'neighbour-0', 1);
    const held = deferred();
    const running = request('flood-a', 'flood-a-1', 50, held.promise);
    const moreUsed = request('flood-b', 'flood-b-1', 60);
    expect(admission.load()).toEqual({ running: 1, waiting: 1 });
    const neighbourHeld = deferred();
    const neighbour = request('neighbour', 'neighbour-1', 1, neighbourHeld.promise);
    expect(admission.load()).toEqual({ running: 2, waiting: 1 });
    const third = request('flood-a', 'flood-a-2', 50);
    expect(admission.load()).toEqual({ running: 2, waiting: 2 });
    neighbourHeld.resolve();
    held.resolve();
    await Promise.all([running, moreUsed, neighbour, third]);
    // flood-a-1's 50 made flood-a (100) more used than flood-b (60) by the time a slot came free.
    expect(order).toEqual([
      'flood-a-0',
      'flood-b-0',
      'neighbour-0',
      'flood-a-1',
      'neighbour-1',
      'flood-b-1',
      'flood-a-2',
    ]);
  });
});
