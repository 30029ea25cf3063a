import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, registerUser, type TestUser } from '../helpers/factories.ts';
import { createItems, createTariff } from '../helpers/tariff-factories.ts';
import { SERVICE_ROLE_KEY, startTestApp, type TestApp } from '../helpers/test-app.ts';

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string };
}

interface Operation {
  method: string;
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The keys its body knows (at the top level, or in the elements of an array body); undefined without a body. */
  bodyKeys?: string[];
  arrayBody: boolean;
}

type JsonSchema = { type?: string; properties?: Record<string, unknown>; items?: JsonSchema; anyOf?: JsonSchema[] };

const MIN_REQUESTS = 10_000;
const NOT_PLAIN_DIGITS = 'Must be a whole number in plain decimal digits';

let t: TestApp;
let owner: TestUser;
let accountId: string;
let operations: Operation[];
let item: { tariffId: number; itemId: number; blockId: number };
let requests = 0;

function objectKeys(schema: JsonSchema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(objectKeys);
  if (schema.type === 'array' && schema.items) return objectKeys(schema.items);
  return Object.keys(schema.properties ?? {});
}

beforeAll(async () => {
  t = await startTestApp();
  owner = await registerUser(t.app, 'fuzz');
  accountId = await createOrganization(owner);
  const tariff = await createTariff(owner.client, accountId, { tariff_type: 'BLOCK' });
  const [created] = await createItems(owner.client, tariff.id, {
    item_type_code: 'IMPORT_ENERGY',
    price: 0,
    blocks: [{ block_index: 0, upper_limit: null, unit_price_cents: 100 }],
  });
  item = { tariffId: tariff.id, itemId: created.id, blockId: created.tariff_blocks[0].id };

  const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  type DocOperation = { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } };
  operations = Object.entries(doc.paths as Record<string, Record<string, DocOperation>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const body = op.requestBody?.content['application/json']?.schema;
      return {
        method: method.toUpperCase(),
        path,
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path'),
        queryParams: (op.parameters ?? []).filter((p) => p.in === 'query'),
        ...(body ? { bodyKeys: objectKeys(body) } : {}),
        arrayBody: body?.type === 'array',
      };
    }),
  );
});
afterAll(async () => t.close());

const isInteger = (p: Parameter) => p.schema?.type === 'integer';

/** The path with valid values in its parameters, except those given. */
function fillPath(op: Operation, values: Record<string, string> = {}): string {
  let url = op.path;
  for (const p of op.pathParams) {
    const value = values[p.name] ?? (isInteger(p) ? '1' : p.name === 'userId' ? owner.id : accountId);
    url = url.replace(`{${p.name}}`, encodeURIComponent(value));
  }
  return url;
}

interface Sent {
  status: number;
  body: any;
  context: string;
}

/** Sends one request and checks what every answer must be: below 500 and the envelope (or 204 without a body). */
async function send(
  method: string,
  url: string,
  options: { query?: Record<string, string>; payload?: string } = {},
): Promise<Sent> {
  requests++;
  const token = url.startsWith('/api/v1/admin/') ? SERVICE_ROLE_KEY : owner.token;
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    ...(options.query ? { query: options.query } : {}),
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  });
  const context = `${method} ${url} ${JSON.stringify(options.query ?? {})} ${(options.payload ?? '').slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, context).toBeLessThan(500);
  if (res.statusCode === 204) {
    expect(res.body, context).toBe('');
    return { status: 204, body: undefined, context };
  }
  const body = res.json();
  if (body.success === false) {
    expect(Object.keys(body).sort(), context).toEqual(['code', 'error', 'message', 'success']);
    expect(body.code, context).toMatch(/^[A-Z][A-Z_]*$/);
    expect(typeof body.error, context).toBe('string');
    expect(body.message === null || typeof body.message === 'string', context).toBe(true);
  } else {
    expect(body.success, context).toBe(true);
    expect(body, context).toHaveProperty('data');
  }
  return { status: res.statusCode, body, context };
}

const hasBody = (op: Operation) => op.method === 'POST' || op.method === 'PUT';

/** An integer written in a form other than plain decimal digits. */
const integerLookalike = fc.oneof(
  fc
    .nat({ max: 2_147_483_647 })
    .chain((n) =>
      fc.constantFrom(
        `0x${n.toString(16)}`,
        `+${n}`,
        `-${n}`,
        `${n}.0`,
        `0${n}`,
        `00${n}`,
        `${n}e0`,
        `${n}E1`,
        ` ${n}`,
        `${n} `,
        `${n}n`,
        `0b${n.toString(2)}`,
      ),
    ),
  fc.constantFrom('', ' ', '1_000', '1,000', 'Infinity', 'NaN', '1e1', '٣', '１'),
  fc.string({ maxLength: 8 }).filter((s) => !/^(0|[1-9][0-9]*)$/.test(s)),
);

const hostileText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '-1',
    '0',
    '1e309',
    'NaN',
    'null',
    '[]',
    '{}',
    '../../etc/passwd',
    "' OR 1=1 --",
    '%00',
    '\u0000',
    '9'.repeat(40),
  ),
  fc.integer().map(String),
  fc.double().map(String),
  fc.uuid(),
  fc.uuid().map((id) => id.toUpperCase()),
  integerLookalike,
);

/** JSON values up to a few levels deep, now and then deeper than public_data may be. */
const { nested } = fc.letrec((tie) => ({
  nested: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 6 }), fc.boolean(), fc.constant(null)),
    fc.array(tie('nested'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('nested'), { maxKeys: 3 }),
  ),
}));

const hostileValue = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 5 }),
  nested,
);

function hostileBody(op: Operation) {
  const keys = [
    ...(op.bodyKeys ?? []),
    'account_id',
    'name',
    'id',
    'readings',
    'meter_sns',
    'price',
    'blocks',
    'public_data',
    '__proto__',
    'constructor',
    'unexpected',
  ];
  return fc.oneof(
    fc.dictionary(
      fc.constantFrom(...keys),
      fc.oneof(hostileValue, fc.constant(accountId), fc.constant(accountId.toUpperCase())),
      { maxKeys: 8 },
    ),
    fc.array(fc.dictionary(fc.constantFrom(...keys), hostileValue, { maxKeys: 4 }), { maxLength: 3 }),
    hostileValue,
  );
}

const runs = (numRuns: number, seed: number) => ({ numRuns, seed });

describe('hostile input', () => {
  it('never answers 5xx, always the envelope, on every route', async () => {
    expect(operations.length).toBeGreaterThan(10);
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(
          fc.array(hostileText, { minLength: op.pathParams.length, maxLength: op.pathParams.length }),
          fc.dictionary(
            fc.constantFrom(...op.queryParams.map((p) => p.name), 'account_id', 'extra'),
            fc.oneof(hostileText, fc.constant(accountId), fc.constant(accountId.toUpperCase())),
            { maxKeys: 5 },
          ),
          hostileBody(op),
          async (pathValues, query, body) => {
            const url = fillPath(op, Object.fromEntries(op.pathParams.map((p, i) => [p.name, pathValues[i] ?? ''])));
            await send(op.method, url, { query, ...(hasBody(op) ? { payload: JSON.stringify(body) } : {}) });
          },
        ),
        runs(40, 20261122),
      );
    }
  }, 600_000);

  it('names every unknown body key on every route with a body: 400 `<key>: Unrecognized key "<key>"`', async () => {
    const withBodies = operations.filter((op) => op.bodyKeys !== undefined);
    expect(withBodies.length).toBeGreaterThan(15);
    const anyKey = fc.string({ minLength: 1, maxLength: 12 });
    for (const op of withBodies) {
      const known = new Set(op.bodyKeys);
      const unknownKey = anyKey.filter((key) => !known.has(key) && key !== '__proto__' && !/^\s|\s$/.test(key));
      await fc.assert(
        fc.asyncProperty(unknownKey, hostileValue, fc.subarray(op.bodyKeys ?? []), async (key, value, alsoKnown) => {
          const element = { ...Object.fromEntries(alsoKnown.map((k) => [k, null])), [key]: value };
          const res = await send(op.method, fillPath(op), {
            query: { account_id: accountId },
            payload: JSON.stringify(op.arrayBody ? [element] : element),
          });
          const path = op.arrayBody ? `0.${key}` : key;
          expect(res.status, res.context).toBe(400);
          expect(res.body.message, res.context).toBe('Invalid request body');
          expect(res.body.error.split('; '), res.context).toContain(`${path}: Unrecognized key "${key}"`);
        }),
        runs(100, 20261123),
      );
    }
  }, 600_000);

  it('answers 400 to an integer id or parameter that is not plain decimal digits, on every route', async () => {
    const targets = operations.flatMap((op) =>
      [...op.pathParams, ...op.queryParams].filter(isInteger).map((param) => ({ op, param })),
    );
    expect(targets.length).toBeGreaterThan(30);
    for (const { op, param } of targets) {
      await fc.assert(
        fc.asyncProperty(integerLookalike, async (value) => {
          const inPath = param.in === 'path';
          // Only where the operation takes an account_id: an unknown parameter is refused first.
          const account: Record<string, string> = op.queryParams.some((p) => p.name === 'account_id')
            ? { account_id: accountId }
            : {};
          const query = { ...account, ...(inPath ? {} : { [param.name]: value }) };
          const url = fillPath(op, inPath ? { [param.name]: value } : {});
          // Query parameters are read after the body: send a valid-looking one where there must be one.
          const res = await send(op.method, url, { query, ...(hasBody(op) ? { payload: '{}' } : {}) });
          expect(res.status, res.context).toBe(400);
          if (inPath || !hasBody(op))
            expect(res.body.error.split('; '), res.context).toContain(`${param.name}: ${NOT_PLAIN_DIGITS}`);
        }),
        runs(50, 20261124),
      );
    }
  }, 600_000);
});

/** How many decimals the shortest text of a number has (`1.5e-7` has 8): an oracle independent of the code under test. */
function decimalsOf(value: number): number {
  const [mantissa = '', exponent = '0'] = String(value).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
}

const priceLike = fc.oneof(
  fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }).map((n) => n / 1e6),
  fc.integer({ min: -20_000_000_000, max: 20_000_000_000 }).map((n) => n / 1e4),
  fc.integer({ min: -1e12, max: 1e12 }).map((n) => n / 1e7),
  fc.double({ min: -2e6, max: 2e6, noNaN: true }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    1e308,
    -1e308,
    5e-324,
    1e6,
    -1e6,
    1_000_000.000001,
    -1_000_000.000001,
    0.000001,
    0.0000001,
    1e8,
    100_000_001,
  ),
);

describe('number bounds', () => {
  it('takes an item price in -1,000,000..1,000,000 with at most 6 decimals, else 400', async () => {
    await fc.assert(
      fc.asyncProperty(priceLike, async (price) => {
        const valid = price >= -1_000_000 && price <= 1_000_000 && decimalsOf(price) <= 6;
        const url = `/api/v1/tariffs/${item.tariffId}/items/${item.itemId}`;
        const res = await send('PUT', url, { payload: JSON.stringify({ price }) });
        expect(res.status, res.context).toBe(valid ? 200 : 400);
        if (valid) expect(res.body.data.price, res.context).toBe(price === 0 ? 0 : price);
        else expect(res.body.error, res.context).toMatch(/^price: /);
      }),
      runs(1_000, 20261125),
    );
  }, 600_000);

  it('takes a tier unit_price_cents in 0..100,000,000 with at most 4 decimals, else 400', async () => {
    const cents = fc.oneof(
      priceLike,
      fc.integer({ min: -10, max: 100_000_010 }),
      fc.integer({ min: 99_999_990, max: 100_000_010 }),
      fc.integer({ min: -100_000, max: 1_000_000_100_000 }).map((n) => n / 1e4),
      fc.integer({ min: -1_000_000, max: 10_000_001_000_000 }).map((n) => n / 1e5),
    );
    await fc.assert(
      fc.asyncProperty(cents, async (unit_price_cents) => {
        const valid = unit_price_cents >= 0 && unit_price_cents <= 100_000_000 && decimalsOf(unit_price_cents) <= 4;
        const url = `/api/v1/tariffs/${item.tariffId}/items/${item.itemId}/blocks/${item.blockId}`;
        const res = await send('PUT', url, { payload: JSON.stringify({ unit_price_cents }) });
        expect(res.status, res.context).toBe(valid ? 200 : 400);
        if (valid)
          expect(res.body.data.unit_price_cents, res.context).toBe(unit_price_cents === 0 ? 0 : unit_price_cents);
        else expect(res.body.error, res.context).toMatch(/^unit_price_cents: /);
      }),
      runs(600, 20261126),
    );
  }, 600_000);

  it('takes a tax_rate in 0..100, else 400', async () => {
    const rate = fc.oneof(priceLike, fc.double({ min: -1, max: 101, noNaN: true }), fc.integer({ min: -5, max: 105 }));
    await fc.assert(
      fc.asyncProperty(rate, async (tax_rate) => {
        const valid = tax_rate >= 0 && tax_rate <= 100;
        const res = await send('PUT', `/api/v1/tariffs/${item.tariffId}`, {
          payload: JSON.stringify({ account_id: accountId, tax_rate }),
        });
        expect(res.status, res.context).toBe(valid ? 200 : 400);
      }),
      runs(400, 20261127),
    );
  }, 600_000);
});

/** The JSON text of nested objects and arrays, outermost first; innermost holds 1 (or nothing). */
function nestedText(levels: readonly ('object' | 'array')[]): string {
  // Run by run (a level repeated), as the generated depths reach 100,000.
  let open = '';
  let close = '';
  for (let start = 0; start < levels.length; ) {
    const level = levels[start];
    let end = start + 1;
    while (end < levels.length && levels[end] === level) end++;
    open += (level === 'object' ? '{"k":' : '[').repeat(end - start);
    close = (level === 'object' ? '}' : ']').repeat(end - start) + close;
    start = end;
  }
  return `${open}1${close}`;
}

const level = fc.constantFrom('object' as const, 'array' as const);
const levels = fc.oneof(
  fc.array(level, { minLength: 0, maxLength: 40 }),
  fc.array(level, { minLength: 28, maxLength: 36 }),
  fc.tuple(level, fc.integer({ min: 33, max: 5_000 })).map(([kind, n]) => Array<typeof kind>(n).fill(kind)),
);

describe('nesting depth', () => {
  it('keeps public_data up to 32 levels deep (itself level 1) and answers 400 beyond', async () => {
    const url = `/api/v1/organizations/${accountId}`;
    await fc.assert(
      fc.asyncProperty(levels, async (inner) => {
        const depth = 1 + inner.length;
        const publicData = `{"top":${nestedText(inner)}}`;
        const res = await send('PUT', url, { payload: `{"public_data":${publicData}}` });
        if (depth <= 32) {
          expect(res.status, res.context).toBe(200);
          expect(res.body.data.public_data, res.context).toEqual(JSON.parse(publicData));
        } else {
          expect(res.status, res.context).toBe(400);
          expect(res.body.error, res.context).toBe('public_data: Must not be nested deeper than 32 levels');
        }
      }),
      runs(800, 20261128),
    );
  }, 600_000);

  it('answers bodies nested up to 100,000 deep on every route with a body below 500, in the envelope', async () => {
    const deep = fc
      .tuple(level, fc.integer({ min: 1, max: 100_000 }))
      .map(([kind, n]) => nestedText(Array<typeof kind>(n).fill(kind)));
    for (const op of operations.filter((o) => o.bodyKeys !== undefined)) {
      await fc.assert(
        fc.asyncProperty(deep, fc.option(fc.constantFrom(...(op.bodyKeys ?? []), 'x')), async (text, key) => {
          const payload = key === null ? text : `{"${key}":${text}}`;
          await send(op.method, fillPath(op), { query: { account_id: accountId }, payload });
        }),
        runs(20, 20261129),
      );
    }
  }, 600_000);
});

describe('the whole file', () => {
  it(`sent at least ${MIN_REQUESTS.toLocaleString('en')} generated requests, none answered 500 or outside the envelope`, () => {
    expect(requests).toBeGreaterThanOrEqual(MIN_REQUESTS);
  });
});
