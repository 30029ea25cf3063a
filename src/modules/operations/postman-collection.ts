import { exampleFromSchema, type JsonSchema } from './example-from-schema.ts';

interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

function requestItem(path: string, method: string, op: Operation) {
  const pathSegments = path
    .replace(/^\//, '')
    .split('/')
    .map((s) => s.replace(/^\{(.+)\}$/, ':$1'));
  const query = (op.parameters ?? [])
    .filter((p) => p.in === 'query')
    .map((p) => ({ key: p.name, value: String(exampleFromSchema(p.schema) ?? ''), disabled: !p.required }));
  const variable = (op.parameters ?? [])
    .filter((p) => p.in === 'path')
    .map((p) => ({ key: p.name, value: String(exampleFromSchema(p.schema) ?? '') }));
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const isPublic = Array.isArray(op.security) && op.security.length === 0;
  return {
    name: op.summary ?? `${method.toUpperCase()} ${path}`,
    request: {
      method: method.toUpperCase(),
      header: bodySchema ? [{ key: 'Content-Type', value: 'application/json' }] : [],
      url: {
        raw: `{{baseUrl}}${path.replace(/\{(.+?)\}/g, ':$1')}`,
        host: ['{{baseUrl}}'],
        path: pathSegments,
        query,
        variable,
      },
      ...(isPublic ? { auth: { type: 'noauth' } } : {}),
      ...(bodySchema
        ? {
            body: {
              mode: 'raw',
              raw: JSON.stringify(exampleFromSchema(bodySchema), null, 2),
              options: { raw: { language: 'json' } },
            },
          }
        : {}),
    },
  };
}

/** A Postman v2.1 collection of every operation of the OpenAPI document, one folder per tag. */
export function postmanCollection(doc: OpenApiDocument, baseUrl: string) {
  const folders = new Map<string, ReturnType<typeof requestItem>[]>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const tag = op.tags?.[0] ?? 'Other';
      folders.set(tag, [...(folders.get(tag) ?? []), requestItem(path, method, op)]);
    }
  }
  return {
    info: { name: doc.info.title, description: doc.info.description ?? '', schema: POSTMAN_SCHEMA },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{bearerToken}}', type: 'string' }] },
    variable: [
      { key: 'baseUrl', value: baseUrl },
      { key: 'bearerToken', value: '' },
    ],
    item: [...folders].map(([name, item]) => ({ name, item })),
  };
}
