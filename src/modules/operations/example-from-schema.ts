/** A JSON Schema (as in the OpenAPI document), reduced to what examples need. */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
}

const FORMAT_EXAMPLES: Record<string, unknown> = {
  uuid: '00000000-0000-4000-8000-000000000000',
  email: 'user@example.com',
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  uri: 'https://example.com',
};

/** A plausible example value for a schema: required fields of objects, one element of arrays. */
export function exampleFromSchema(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const variant = schema.anyOf ?? schema.oneOf;
  if (variant?.length) return exampleFromSchema(variant.find((v) => v.type !== 'null') ?? variant[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const entries = Object.entries(schema.properties ?? {}).filter(([name]) => schema.required?.includes(name));
      return Object.fromEntries(entries.map(([name, prop]) => [name, exampleFromSchema(prop, depth + 1)]));
    }
    case 'array':
      return [exampleFromSchema(schema.items, depth + 1)];
    case 'integer':
    case 'number':
      return schema.minimum !== undefined && schema.minimum > 1 ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'string':
      return (schema.format && FORMAT_EXAMPLES[schema.format]) ?? 'string';
    default:
      return null;
  }
}
