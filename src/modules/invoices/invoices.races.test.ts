import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../../test/helpers/envelopes.ts';
import type { TestUser } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import { countViolations, onPostgres, same, startRaceWorld, summary } from '../../../test/helpers/races.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

const NUMBER_TAKEN = failure(
  'Conflict',
  'An invoice with this supplier and invoice_number already exists in this organization',
);

describe.runIf(onPostgres)('invoices under concurrent requests (PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestUser;
  let accountId: string;
  let blockId: number;
  beforeAll(async () => {
    ({ t, owner, accountId, blockId } = await startRaceWorld());
  });
  afterAll(async () => t.close());

  const invoice = (invoiceNumber: string) => ({
    account_id: accountId,
    building_block_id: blockId,
    supplier: 'City Power',
    invoice_number: invoiceNumber,
    issued_on: '2025-07-01',
    start: '2025-06-01T00:00:00+02:00',
    end: '2025-07-01T00:00:00+02:00',
    currency: 'ZAR',
    lines: [{ description: 'Energy', item_type_code: 'IMPORT_ENERGY', quantity: 100, unit: 'kWh', amount: 200 }],
    subtotal: 200,
    tax: 30,
    total: 230,
  });

  it('records one invoice when two creates of the same supplier and number race: one 201, the other 409', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async (i) => {
      const replies: Reply[] = await Promise.all(
        [0, 1].map(() => owner.client.post('/api/v1/invoices', invoice(`RACE-${i}`))),
      );
      const loser = replies.find((r) => r.status !== 201);
      if (loser && !same(loser.body, NUMBER_TAKEN)) wrongAnswers.push(summary(loser));
      const [{ count }] = (await t.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM invoices WHERE account_id = $1 AND invoice_number = $2',
        [accountId, `RACE-${i}`],
      )) as [{ count: number }];
      return replies.filter((r) => r.status === 201).length !== 1 || count !== 1;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('keeps the number unique when two updates race to take it: one 200, the other 409', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async (i) => {
      const ids: number[] = [];
      for (const suffix of ['a', 'b']) {
        const created = await owner.client.post('/api/v1/invoices', invoice(`SWAP-${i}-${suffix}`));
        ids.push(created.body.data.id);
      }
      const replies: Reply[] = await Promise.all(
        ids.map((id) => owner.client.put(`/api/v1/invoices/${id}`, invoice(`TAKEN-${i}`))),
      );
      const loser = replies.find((r) => r.status !== 200);
      if (loser && !same(loser.body, NUMBER_TAKEN)) wrongAnswers.push(summary(loser));
      return replies.filter((r) => r.status === 200).length !== 1;
    }, 20);
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });
});
