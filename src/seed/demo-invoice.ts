import { Decimal } from 'decimal.js';
import type { InjectOptions } from 'fastify';
import { lastWholeMonth } from '../http/examples.ts';
import type { App } from '../http/types.ts';

/** The demo user's email and password: the invoice is made through the API, as a user would. */
export interface DemoLogin {
  email: string;
  password: string;
}

/** The line the utility bills more than our bill, by how much and the VAT on it: what a check finds. */
const OVERCHARGE = { item_type_code: 'SERVICE', amount: 50, tax: 7.5 };

interface DraftLine {
  item_type_code: string;
  amount: number;
}

/** The answer's data of a request of the demo user; an error naming the request otherwise. */
async function demoCall(app: App, request: InjectOptions) {
  const answer = await app.inject(request);
  if (answer.statusCode >= 300) throw new Error(`demo invoice: ${answer.statusCode} ${answer.body}`);
  return answer.json().data;
}

/**
 * The utility's invoice of the demo site's grid for the last whole month before `now` (South
 * African time): our bill of that month (POST /invoices/draft) but for its Service charge, R 50
 * more, and the VAT on that. Its check flags that line, and nothing else. Made after the app is built, so
 * that the bill is the one the app computes.
 */
export async function seedDemoInvoice(
  app: App,
  login: DemoLogin,
  place: { accountId: string; blockId: number },
  now: Date,
): Promise<number> {
  const { access_token: token } = await demoCall(app, { method: 'POST', url: '/api/v1/auth/login', payload: login });
  const headers = { authorization: `Bearer ${token}` };
  const month = lastWholeMonth(now);
  const draft = await demoCall(app, {
    method: 'POST',
    url: '/api/v1/invoices/draft',
    headers,
    query: { account_id: place.accountId, building_block_id: String(place.blockId), source: 'grid', ...month },
  });
  const plus = (value: number, more: number) => new Decimal(value).plus(more).toNumber();
  const lines = draft.lines.map((line: DraftLine) =>
    line.item_type_code === OVERCHARGE.item_type_code
      ? { ...line, amount: plus(line.amount, OVERCHARGE.amount) }
      : line,
  );
  if (lines.filter((line: DraftLine, i: number) => line !== draft.lines[i]).length !== 1) {
    throw new Error(`demo invoice: our bill has not one ${OVERCHARGE.item_type_code} line`);
  }
  // The month's last day: its end is the next local midnight, 22:00 UTC of that day.
  const issuedOn = month.end.slice(0, 10);
  const invoice = await demoCall(app, {
    method: 'POST',
    url: '/api/v1/invoices',
    headers,
    payload: {
      ...draft,
      supplier: 'City Power',
      invoice_number: `DEMO-${issuedOn.slice(0, 7)}`,
      issued_on: issuedOn,
      lines,
      subtotal: plus(draft.subtotal, OVERCHARGE.amount),
      tax: plus(draft.tax, OVERCHARGE.tax),
      total: plus(draft.total, OVERCHARGE.amount + OVERCHARGE.tax),
    },
  });
  return invoice.id;
}
