import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { CATALOGUE_ACCOUNT_ID } from '../modules/tariffs/tariffs.model.ts';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  responses: Record<
    string,
    {
      description?: string;
      content?: Record<string, { schema?: { examples?: unknown[] }; example?: unknown }>;
      headers?: Record<string, { required?: boolean; schema?: unknown }>;
    }
  >;
}

let t: TestApp;
let document: {
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
};
let operations: [string, Operation][];
/** The document as served, its references unresolved. */
let served: { paths: object; components: Record<string, Record<string, unknown>> };

/** The value with each local reference (`#/components/...`) replaced by what it refers to. */
function resolved(value: unknown): any {
  if (Array.isArray(value)) return value.map(resolved);
  if (typeof value !== 'object' || value === null) return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/')) {
    const [, , kind, name] = ref.split('/');
    return resolved(served.components[kind!]![name!]);
  }
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolved(inner)]));
}

beforeAll(async () => {
  t = await startTestApp();
  served = (await call(t.app, 'GET', '/api/v1/openapi.json')).body;
  document = resolved(served);
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
  );
});
afterAll(async () => t.close());

describe('the OpenAPI document', () => {
  it('documents every operation of the service, administration included', () => {
    expect(operations.length).toBeGreaterThanOrEqual(60);
    expect(operations.map(([name]) => name)).toContain('DELETE /api/v1/admin/users/{id}');
  });

  it('gives every operation a summary, a description and a tag of the document', () => {
    const tags = document.tags.map((tag) => tag.name);
    for (const [name, op] of operations) {
      expect(op.summary?.trim(), name).toBeTruthy();
      expect(op.description?.trim(), name).toBeTruthy();
      expect(op.tags?.length, name).toBe(1);
      expect(tags, name).toContain(op.tags![0]);
    }
  });

  it('gives every operation a unique operationId, lowerCamelCase and verb first', () => {
    const verbs = 'list|get|create|update|delete|add|remove|replace|clone|set|store|sign|refresh|rotate';
    const pattern = new RegExp(`^(${verbs})[A-Z][a-zA-Z]*$|^sign(In|Up|Out)$`);
    const ids = operations.map(([name, op]) => {
      expect(op.operationId, name).toMatch(pattern);
      return op.operationId;
    });
    expect(new Set(ids).size).toBe(operations.length);
    expect(document.paths['/api/v1/building_blocks']!.get!.operationId).toBe('listBuildingBlocks');
    expect(document.paths['/api/v1/tariffs/{id}/cost']!.get!.operationId).toBe('getTariffCost');
  });

  it('declares WWW-Authenticate on every 401 and Retry-After on every 429 and 503', () => {
    const expected: Record<string, string> = { '401': 'WWW-Authenticate', '429': 'Retry-After', '503': 'Retry-After' };
    let declared = 0;
    for (const [name, op] of operations) {
      for (const [status, header] of Object.entries(expected)) {
        const response = op.responses[status];
        if (!response) continue;
        expect(response.headers?.[header], `${name} ${status}`).toMatchObject({ required: true });
        declared++;
      }
    }
    // Every operation answers 503; every operation with a token 401.
    expect(declared).toBeGreaterThan(2 * operations.length - 10);
  });

  it('types and constrains the fields as the service reads them', () => {
    const body = (path: string, method: string) =>
      (document.paths[path]![method] as any).requestBody.content['application/json'].schema;
    const parameter = (path: string, method: string, name: string) =>
      (document.paths[path]![method] as any).parameters.find((p: { name: string }) => p.name === name);
    const block = body('/api/v1/building_blocks', 'post');
    expect(block.required).toEqual(
      expect.arrayContaining(['account_id', 'name', 'building_type', 'address', 'city', 'state', 'postal_code']),
    );
    expect(block.required).toContain('country');
    expect(block.properties.name).toMatchObject({ type: 'string', minLength: 1, pattern: '^[^\\u0000]*$' });
    expect(parameter('/api/v1/meters/{id}', 'delete', 'force').schema).toEqual({ type: 'boolean' });
    expect(body('/api/v1/timeseries/electricity/energy-sums', 'post').properties.meter_sns.uniqueItems).toBe(true);
    expect(body('/api/v1/timeseries/electricity/readings', 'post').properties.readings.uniqueItems).toBe(true);
    expect(body('/api/v1/organizations', 'post').properties.name.pattern).toBe('^[^\\u0000]*$');
    expect(body('/api/v1/tariffs', 'post').properties.name.pattern).toBe('^[^\\u0000]*$');
    expect(body('/api/v1/auth/signup', 'post').properties.email).toMatchObject({
      format: 'email',
      pattern: expect.any(String),
    });
    const start = parameter('/api/v1/timeseries/electricity/energy-profile', 'get', 'start');
    expect(start.description).toContain('9999-01-01T00:00:00Z');
  });

  it('states the rules the service enforces: bounds, patterns, unique items', () => {
    const parameter = (path: string, method: string, name: string) =>
      (document.paths[path]![method] as any).parameters.find((p: { name: string }) => p.name === name).schema;
    const matches = (schema: { pattern: string }, text: string) => new RegExp(schema.pattern).test(text);
    const tolerance = parameter('/api/v1/invoices/{id}/check', 'get', 'tolerance_pct');
    expect(['0', '1.5', '100', '100.0000'].filter((text) => !matches(tolerance, text))).toEqual([]);
    expect(['100.01', '101', '-1', '1e2'].filter((text) => matches(tolerance, text))).toEqual([]);
    const tariffIds = parameter('/api/v1/building_blocks/{id}/tariff-comparison', 'get', 'tariff_ids');
    expect(tariffIds.type).toBe('string');
    expect([matches(tariffIds, '1001'), matches(tariffIds, '1001,1002'), matches(tariffIds, '1001,')]).toEqual([
      true,
      true,
      false,
    ]);
    const config = (document.paths['/api/v1/building_blocks/{id}/config']!.put as any).requestBody.content[
      'application/json'
    ].schema;
    expect(config.properties.submeter_ids.anyOf[0]).toMatchObject({ type: 'array', uniqueItems: true });
    const start = parameter('/api/v1/timeseries/electricity/energy-profile', 'get', 'start');
    expect(['1900-01-01T00:00:00Z', '9998-12-31T23:59:59Z'].filter((text) => !matches(start, text))).toEqual([]);
    expect(
      ['1899-06-01T00:00:00Z', '9999-06-01T00:00:00Z', '0001-01-01T00:00:00Z'].filter((text) => matches(start, text)),
    ).toEqual([]);
  });

  it('lists the codes of each failure, and the refusals of the HTTP layer on the operations that can meet them', () => {
    for (const [name, op] of operations) {
      for (const status of ['408', '414', '431']) expect(op.responses[status], `${name} ${status}`).toBeDefined();
      const hasBody = (op as { requestBody?: unknown }).requestBody !== undefined;
      for (const status of ['413', '415'])
        expect(op.responses[status] !== undefined, `${name} ${status}`).toBe(hasBody);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.headers?.['X-Request-Id'], `${name} ${status}`).toMatchObject({ required: true });
        if (!/^[45]/.test(status)) continue;
        const schema = response.content?.['application/json']?.schema as { properties: { code: { enum: string[] } } };
        expect(schema.properties.code.enum.length, `${name} ${status}`).toBeGreaterThan(0);
        expect(schema.properties.code.enum.every((code) => /^[A-Z][A-Z_]+$/.test(code))).toBe(true);
      }
    }
    const deleteBlock = document.paths['/api/v1/building_blocks/{id}']!.delete!.responses;
    expect((deleteBlock['409']!.content!['application/json']!.schema as any).properties.code.enum).toContain(
      'BLOCK_NOT_EMPTY',
    );
    expect(deleteBlock['413'] === undefined).toBe(true);
    expect(
      (document.paths['/api/v1/meters']!.post!.responses['413']!.content!['application/json']!.example as any).code,
    ).toBe('PAYLOAD_TOO_LARGE');
  });

  it('writes each failure envelope, failure response and header once, in its components, and refers to it', () => {
    const refs: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      const ref = (value as { $ref?: unknown }).$ref;
      if (typeof ref === 'string') refs.push(ref);
      for (const inner of Object.values(value)) collect(inner);
    };
    collect(served.paths);
    const ofKind = (kind: string) => new Set(refs.filter((r) => r.startsWith(`#/components/${kind}/`)));
    expect([...ofKind('headers')].sort()).toEqual([
      '#/components/headers/Retry-After',
      '#/components/headers/WWW-Authenticate',
      '#/components/headers/X-Request-Id',
    ]);
    expect(ofKind('responses')).toContain('#/components/responses/Failure408');
    expect(served.components.responses!.Failure408).toMatchObject({
      description: expect.stringMatching(/REQUEST_TIMEOUT_S/),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure408' } } },
    });
    expect(served.components.schemas!.Failure404).toMatchObject({
      required: ['success', 'message', 'error', 'code'],
      properties: { code: { enum: expect.arrayContaining(['NOT_FOUND']) } },
    });
    // Every reference names something the document holds.
    expect(refs.filter((ref) => resolved({ $ref: ref }) === undefined)).toEqual([]);
  });

  it('uses only the marked placeholder uuids in its examples, besides the catalogue that every install has', () => {
    const examples: unknown[] = [];
    const collect = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'example' || key === 'examples') examples.push(inner);
        else collect(inner);
      }
    };
    collect(served);
    const uuids = JSON.stringify(examples).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [];
    expect(uuids.length).toBeGreaterThan(30);
    const placeholder = /^00000000-0000-4000-8000-00000000000\d$/;
    expect([...new Set(uuids)].filter((uuid) => !placeholder.test(uuid) && uuid !== CATALOGUE_ACCOUNT_ID)).toEqual([]);
  });

  it('marks the examples that no install has as placeholders', () => {
    const accountIds = operations.flatMap(([, op]) =>
      ((op as any).parameters ?? []).filter((p: { name: string }) => p.name === 'account_id'),
    );
    expect(accountIds.length).toBeGreaterThan(30);
    for (const parameter of accountIds) {
      if (parameter.schema.example === undefined) continue;
      expect(parameter.schema.example).toBe('00000000-0000-4000-8000-000000000001');
      expect(parameter.description).toContain('The example is a placeholder');
    }
  });

  it('declares one success per operation, with a schema and an example unless it is 204', () => {
    for (const [name, op] of operations) {
      const successes = Object.keys(op.responses).filter((status) => status.startsWith('2'));
      expect(successes, name).toHaveLength(1);
      const [status] = successes as [string];
      const content = op.responses[status]!.content?.['application/json'];
      const csv = op.responses[status]!.content?.['text/csv'];
      if (status === '204') {
        expect(content, name).toBeUndefined();
      } else if (csv) {
        expect(csv.example ?? csv.schema?.examples?.[0], name).toMatch(/^\uFEFF.+\r\n/);
      } else {
        expect(content?.schema, name).toBeDefined();
        expect(content?.example, name).toMatchObject({ success: true });
      }
    }
  });

  it('declares the failure envelope, with an example, for at least one failure of every operation', () => {
    for (const [name, op] of operations) {
      const failures = Object.entries(op.responses).filter(([status]) => /^[45]/.test(status));
      expect(
        failures.some(([status]) => status.startsWith('4')),
        name,
      ).toBe(true);
      for (const [status, response] of failures) {
        const content = response.content?.['application/json'];
        expect(content?.schema, `${name} ${status}`).toMatchObject({
          required: ['success', 'message', 'error', 'code'],
          additionalProperties: false,
        });
        expect(content?.example, `${name} ${status}`).toMatchObject({ success: false });
      }
    }
  });

  it('answers 201 where the service creates, as it really answers', () => {
    const created = operations.filter(([, op]) => '201' in op.responses).map(([name]) => name);
    expect(created).toEqual(
      expect.arrayContaining([
        'POST /api/v1/organizations',
        'POST /api/v1/building_blocks',
        'POST /api/v1/meters',
        'POST /api/v1/tariffs',
        'POST /api/v1/tariffs/{id}/items',
        'POST /api/v1/tariffs/catalogue/{id}/clone',
      ]),
    );
  });

  it("declares the readings route's text/csv body besides its JSON one: a string, what it holds, an example", () => {
    const body = (document.paths['/api/v1/timeseries/electricity/readings']!.post as any).requestBody;
    expect(Object.keys(body.content)).toEqual(['application/json', 'text/csv']);
    expect(body.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['meter_sn', 'readings'],
    });
    expect(body.content['application/json'].schema.example).toMatchObject({ meter_sn: 'DEMO-GRID-001' });
    expect(body.content['text/csv']).toEqual({
      schema: {
        type: 'string',
        description: expect.stringMatching(/^A spreadsheet of readings: a header line, then a line per reading/),
      },
      example:
        'Meter;Date;Time;kWh;kVArh\nDEMO-GRID-001;2026/11/01;00:00;12,5;3,1\nDEMO-GRID-001;2026/11/01;00:30;11,75;2,9\n',
    });
    const withText = operations.filter(([, op]) => {
      const content = (op as { requestBody?: { content: object } }).requestBody?.content;
      return content && Object.keys(content).length > 1;
    });
    expect(withText.map(([name]) => name)).toEqual([
      'POST /api/v1/timeseries/electricity/readings',
      'POST /api/v1/timeseries/water/readings',
    ]);
  });

  it("declares the water readings route's text/csv body: its value column is volume_kl", () => {
    const body = (document.paths['/api/v1/timeseries/water/readings']!.post as any).requestBody;
    expect(Object.keys(body.content)).toEqual(['application/json', 'text/csv']);
    expect(body.content['application/json'].schema.example).toMatchObject({ meter_sn: 'DEMO-WATER-001' });
    expect(body.content['text/csv']).toEqual({
      schema: {
        type: 'string',
        description: expect.stringMatching(/^A spreadsheet of water readings: a header line, then a line per reading/),
      },
      example: 'Date;Time;kL\n01/11/2026;00:00;0,35\n01/11/2026;00:30;0,4\n',
    });
  });

  it('has a relative server, so that "Try it out" calls the host that served the page', () => {
    expect(document.servers).toEqual([{ url: '/' }]);
  });

  it('marks the operations that need no token, and those that need the service-role key', () => {
    expect(document.paths['/api/v1/auth/login']!.post!.security).toEqual([]);
    expect(document.paths['/api/v1/auth/organizations']!.get!.security).toBeUndefined();
    expect(document.paths['/api/v1/admin/users']!.get!.security).toEqual([{ serviceRoleKey: [] }]);
  });

  it('serves the reference page from the same document', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});
