import { exampleFromSchema, type JsonSchema } from './example-from-schema.ts';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
  example?: unknown;
}

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
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

/** Variables that hold numbers: written into JSON bodies without quotes. */
const NUMERIC_VARIABLES = new Set([
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

/** The value of a parameter in a request: its variable, else the example of the reference. */
function parameterValue(path: string, parameter: Parameter, fallbacks: Fallbacks) {
  const example = parameter.example ?? exampleFromSchema(parameter.schema);
  const variable = variableOf(path, parameter);
  if (variable === undefined) return { value: String(example ?? ''), variable };
  if (example != null && !fallbacks.has(variable)) fallbacks.set(variable, String(example));
  return { value: `{{${variable}}}`, variable };
}

/** Body fields that keep their example: a serial in a body may be that of a new meter. */
const OWN_IN_BODIES = new Set(['meter_sn']);

/** The body's example as JSON, its top-level fields that a variable stands for written as that variable. */
function bodyText(schema: JsonSchema, fallbacks: Fallbacks): string {
  const example = exampleFromSchema(schema);
  if (example === null || typeof example !== 'object' || Array.isArray(example)) {
    return JSON.stringify(example, null, 2);
  }
  const fields = Object.entries(example).map(([key, value]) => {
    const variable = OWN_IN_BODIES.has(key) ? undefined : VARIABLE_OF_FIELD[key];
    if (variable === undefined || typeof value === 'object') return [key, value];
    if (!fallbacks.has(variable)) fallbacks.set(variable, String(value));
    return [key, `{{${variable}}}`];
  });
  let text = JSON.stringify(Object.fromEntries(fields), null, 2);
  for (const variable of NUMERIC_VARIABLES) text = text.replaceAll(`"{{${variable}}}"`, `{{${variable}}}`);
  return text;
}

/**
 * After signing in: the access token into bearerToken, and the first organization of the user
 * that is not a personal account (the personal one comes first and holds nothing), else the
 * first, into account_id.
 */
const SIGN_IN_SCRIPT = [
  'if (pm.response.code === 200) {',
  '  const token = pm.response.json().data.access_token;',
  "  pm.collectionVariables.set('bearerToken', token);",
  '  pm.sendRequest(',
  '    {',
  "      url: pm.collectionVariables.get('baseUrl') + '/api/v1/auth/organizations',",
  "      method: 'GET',",
  "      header: { Authorization: 'Bearer ' + token },",
  '    },',
  '    (error, response) => {',
  '      if (error) return;',
  '      const organizations = response.json().data;',
  '      const first = organizations.find((o) => !o.is_personal_account) || organizations[0];',
  "      if (first) pm.collectionVariables.set('account_id', first.id);",
  '    },',
  '  );',
  '}',
];

const needsServiceRole = (op: Operation) =>
  op.security?.some((requirement) => 'serviceRoleKey' in requirement) ?? false;

function authOf(op: Operation) {
  if (Array.isArray(op.security) && op.security.length === 0) return { auth: { type: 'noauth' } };
  if (needsServiceRole(op)) {
    return { auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{serviceRoleKey}}', type: 'string' }] } };
  }
  return {};
}

function requestItem(path: string, method: string, op: Operation, fallbacks: Fallbacks) {
  const parameters = op.parameters ?? [];
  const query = parameters
    .filter((p) => p.in === 'query')
    .map((p) => {
      const { value, variable } = parameterValue(path, p, fallbacks);
      return { key: p.name, value, disabled: !p.required && variable === undefined };
    });
  const variable = parameters
    .filter((p) => p.in === 'path')
    .map((p) => ({ key: p.name, value: parameterValue(path, p, fallbacks).value }));
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  return {
    name: op.summary ?? `${method.toUpperCase()} ${path}`,
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
        ? { body: { mode: 'raw', raw: bodyText(bodySchema, fallbacks), options: { raw: { language: 'json' } } } }
        : {}),
    },
    ...(path === SIGN_IN
      ? { event: [{ listen: 'test', script: { type: 'text/javascript', exec: SIGN_IN_SCRIPT } }] }
      : {}),
  };
}

const DESCRIPTION = `Run "Sign in" (Authentication) first: it stores the access token in bearerToken and the first organization that is not a personal account in account_id. The other variables hold ids of the demo data (building block, meters, tariffs) and a month of its readings (start, end); change them to address your own records. Administration requests use serviceRoleKey.`;

/**
 * A Postman v2.1 collection of every operation of the OpenAPI document, one folder per tag in the
 * document's order. Parameters and body fields that name a record or a period use collection
 * variables, valued from `samples` (else from the reference's examples).
 */
export function postmanCollection(doc: OpenApiDocument, baseUrl: string, samples: SampleValues = {}) {
  const fallbacks: Fallbacks = new Map();
  const folders = new Map<string, ReturnType<typeof requestItem>[]>((doc.tags ?? []).map((t) => [t.name, []]));
  let serviceRole = false;
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const tag = op.tags?.[0] ?? 'Other';
      serviceRole ||= needsServiceRole(op);
      folders.set(tag, [...(folders.get(tag) ?? []), requestItem(path, method, op, fallbacks)]);
    }
  }
  const values = new Map([...fallbacks, ...Object.entries(samples)]);
  return {
    info: { name: doc.info.title, description: DESCRIPTION, schema: POSTMAN_SCHEMA },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{bearerToken}}', type: 'string' }] },
    variable: [
      { key: 'baseUrl', value: baseUrl },
      { key: 'bearerToken', value: '' },
      ...(serviceRole ? [{ key: 'serviceRoleKey', value: '' }] : []),
      ...[...values].sort(([a], [b]) => a.localeCompare(b)).map(([key, value]) => ({ key, value })),
    ],
    item: [...folders].filter(([, item]) => item.length > 0).map(([name, item]) => ({ name, item })),
  };
}
