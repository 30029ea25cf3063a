import { CLEAN_UP, STEPS, type Step } from './collection-plan.ts';
import { testScript } from './collection-scripts.ts';
import { exampleFromSchema, type JsonSchema } from './example-from-schema.ts';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
  example?: unknown;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  tags?: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
}

/** Values of the collection's variables (ids, serial, period) that the running service knows, e.g. its demo's. */
export type SampleValues = Readonly<Record<string, string>>;

const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const SIGN_IN = '/api/v1/auth/login';

/** The variable that stands for a parameter or body field of this name, wherever it appears. */
const VARIABLE_OF_FIELD: Record<string, string> = {
  account_id: 'account_id',
  userId: 'user_id',
  primary_owner_user_id: 'user_id',
  building_block_id: 'building_block_id',
  parent_id: 'building_block_id',
  meter_sn: 'meter_sn',
  tariff_id: 'tariff_id',
  itemId: 'tariff_item_id',
  blockId: 'tariff_block_id',
  dso_id: 'dso_id',
  start: 'start',
  end: 'end',
};

/** The variable of a path's `{id}`, by the collection it is an id of. */
const VARIABLE_OF_ID: Record<string, string> = {
  organizations: 'account_id',
  users: 'user_id',
  building_blocks: 'building_block_id',
  meters: 'meter_id',
  tariffs: 'tariff_id',
  catalogue: 'catalogue_tariff_id',
  tou_schedules: 'tou_schedule_id',
  invoices: 'invoice_id',
};

/** Variables that hold numbers (or JSON): written into JSON bodies without quotes. */
const NUMERIC_VARIABLES = new Set([
  'water_meter_id',
  'water_first_read',
  'water_first_reading',
  'building_block_id',
  'meter_id',
  'tariff_id',
  'tariff_item_id',
  'tariff_block_id',
  'catalogue_tariff_id',
  'tou_schedule_id',
  'dso_id',
  'invoice_id',
]);

function variableOf(path: string, parameter: { name: string; in: string }): string | undefined {
  if (parameter.in === 'path' && parameter.name === 'id') {
    const collection = path.split('/{id}')[0]!.split('/').at(-1)!;
    return VARIABLE_OF_ID[collection];
  }
  return VARIABLE_OF_FIELD[parameter.name];
}

/** Examples of the document, by the variable that stands for them: the variables' values without samples. */
type Fallbacks = Map<string, string>;

/** The value of a parameter in a request: the step's text or variable, its own variable, else the example of the reference. */
function parameterValue(path: string, parameter: Parameter, fallbacks: Fallbacks, step: Step) {
  const written = step.writes?.[parameter.name];
  if (written !== undefined) return { value: written, variable: written };
  const example = parameter.example ?? exampleFromSchema(parameter.schema);
  const variable = step.uses?.[parameter.name] ?? variableOf(path, parameter);
  if (variable === undefined) return { value: String(example ?? ''), variable };
  if (example != null && !fallbacks.has(variable)) fallbacks.set(variable, String(example));
  return { value: `{{${variable}}}`, variable };
}

/** Body fields that keep their example: a serial in a body may be that of a new meter. */
const OWN_IN_BODIES = new Set(['meter_sn']);

/** The body's example as JSON, its top-level fields that a variable stands for written as that variable. */
function bodyText(schema: JsonSchema, fallbacks: Fallbacks, step: Step): string {
  const example = exampleFromSchema(schema);
  if (example === null || typeof example !== 'object' || Array.isArray(example)) {
    return JSON.stringify(example, null, 2);
  }
  const fields = Object.entries(example).map(([key, value]) => {
    const written = step.writes?.[key];
    const writtenVariable = written?.match(/^\{\{(\w+)\}\}$/)?.[1];
    // A field written as a variable of its own: the example's value (as JSON) until samples give one.
    if (writtenVariable && !fallbacks.has(writtenVariable)) fallbacks.set(writtenVariable, JSON.stringify(value));
    if (written !== undefined) return [key, written];
    const variable = step.uses?.[key] ?? (OWN_IN_BODIES.has(key) ? undefined : VARIABLE_OF_FIELD[key]);
    if (variable === undefined || typeof value === 'object') return [key, value];
    if (!fallbacks.has(variable)) fallbacks.set(variable, String(value));
    return [key, `{{${variable}}}`];
  });
  let text = JSON.stringify(Object.fromEntries(fields), null, 2);
  for (const variable of NUMERIC_VARIABLES) text = text.replaceAll(`"{{${variable}}}"`, `{{${variable}}}`);
  return text;
}

const needsServiceRole = (op: Operation) =>
  op.security?.some((requirement) => 'serviceRoleKey' in requirement) ?? false;

function authOf(op: Operation) {
  if (Array.isArray(op.security) && op.security.length === 0) return { auth: { type: 'noauth' } };
  if (needsServiceRole(op)) {
    return { auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{serviceRoleKey}}', type: 'string' }] } };
  }
  return {};
}

/** The status an operation answers when it succeeds: its one 2xx of the document. */
function successOf(op: Operation): number {
  const status = Object.keys(op.responses ?? {}).find((code) => code.startsWith('2'));
  return Number(status ?? 200);
}

function requestItem(path: string, method: string, op: Operation, fallbacks: Fallbacks) {
  const step = STEPS[op.operationId ?? ''] ?? {};
  const parameters = op.parameters ?? [];
  const query = parameters
    .filter((p) => p.in === 'query')
    .map((p) => {
      const { value, variable } = parameterValue(path, p, fallbacks, step);
      return { key: p.name, value, disabled: !p.required && variable === undefined };
    });
  const variable = parameters
    .filter((p) => p.in === 'path')
    .map((p) => ({ key: p.name, value: parameterValue(path, p, fallbacks, step).value }));
  const name = op.summary ?? `${method.toUpperCase()} ${path}`;
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  return {
    name,
    request: {
      method: method.toUpperCase(),
      description: op.description ?? '',
      header: bodySchema ? [{ key: 'Content-Type', value: 'application/json' }] : [],
      url: {
        raw: `{{baseUrl}}${path.replace(/\{(.+?)\}/g, ':$1')}`,
        host: ['{{baseUrl}}'],
        path: path
          .replace(/^\//, '')
          .split('/')
          .map((s) => s.replace(/^\{(.+)\}$/, ':$1')),
        query,
        variable,
      },
      ...authOf(op),
      ...(bodySchema
        ? {
            body: { mode: 'raw', raw: bodyText(bodySchema, fallbacks, step), options: { raw: { language: 'json' } } },
          }
        : {}),
    },
    event: [
      {
        listen: 'test',
        script: { type: 'text/javascript', exec: testScript(name, successOf(op), step, path === SIGN_IN) },
      },
    ],
  };
}

/** Where a request runs: after the creating requests (POST), the changes (PUT), then the reads. */
const METHOD_ORDER = ['post', 'put', 'get', 'delete'];

/** Variables that a run fills in (the ids of what it creates), empty until then; others a step uses are the demo's. */
function runVariables(): string[] {
  const names = Object.values(STEPS).flatMap((step) => Object.keys(step.stores ?? {}));
  return [...new Set(names)].filter((name) => name !== 'bearerToken');
}

const DESCRIPTION = `Runs top to bottom against the demo (the Collection Runner or newman) and leaves it as it found it. "Sign in" (Authentication) stores the access token in bearerToken and the first organization that is not a personal account in account_id. Reads use the demo's records, whose ids the variables hold, with a month of its readings (start, end); every write works on a record that an earlier request created (the new_* variables), and "Clean up" deletes those at the end. Every request's test checks its documented status. Administration requests use serviceRoleKey.`;

const CLEAN_UP_FOLDER = 'Clean up';

/**
 * A Postman v2.1 collection of every operation of the OpenAPI document, one folder per tag in the
 * document's order. Parameters and body fields that name a record or a period use collection
 * variables, valued from `samples` (else from the reference's examples).
 */
export function postmanCollection(doc: OpenApiDocument, baseUrl: string, samples: SampleValues = {}) {
  const fallbacks: Fallbacks = new Map();
  type Entry = { method: string; item: ReturnType<typeof requestItem> };
  const folders = new Map<string, Entry[]>((doc.tags ?? []).map((t) => [t.name, []]));
  const cleanUp = new Map<string, ReturnType<typeof requestItem>>();
  let serviceRole = false;
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const tag = op.tags?.[0] ?? 'Other';
      serviceRole ||= needsServiceRole(op);
      const item = requestItem(path, method, op, fallbacks);
      if ((CLEAN_UP as readonly string[]).includes(op.operationId ?? '')) cleanUp.set(op.operationId!, item);
      else folders.set(tag, [...(folders.get(tag) ?? []), { method, item }]);
    }
  }
  const ordered = (entries: Entry[]) =>
    entries
      .map((entry, index) => ({ entry, index }))
      .sort((a, b) => METHOD_ORDER.indexOf(a.entry.method) - METHOD_ORDER.indexOf(b.entry.method) || a.index - b.index)
      .map(({ entry }) => entry.item);
  const lastItems = CLEAN_UP.flatMap((operationId) => cleanUp.get(operationId) ?? []);
  // A run's own records have no value before the run: a write never falls back on a demo record.
  const values = new Map([
    ...fallbacks,
    ...Object.entries(samples),
    ...runVariables().map((name): [string, string] => [name, '']),
  ]);
  return {
    info: { name: doc.info.title, description: DESCRIPTION, schema: POSTMAN_SCHEMA },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{bearerToken}}', type: 'string' }] },
    variable: [
      { key: 'baseUrl', value: baseUrl },
      { key: 'bearerToken', value: '' },
      ...(serviceRole ? [{ key: 'serviceRoleKey', value: '' }] : []),
      ...[...values].sort(([a], [b]) => a.localeCompare(b)).map(([key, value]) => ({ key, value })),
    ],
    item: [
      ...[...folders]
        .filter(([, entries]) => entries.length > 0)
        .map(([name, entries]) => ({ name, item: ordered(entries) })),
      ...(lastItems.length > 0 ? [{ name: CLEAN_UP_FOLDER, item: lastItems }] : []),
    ],
  };
}
