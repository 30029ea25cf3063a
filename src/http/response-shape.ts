import type { z } from 'zod';

/**
 * What a response schema lets through: the fields of its objects and the shape of its arrays'
 * elements, each possibly absent. Values of any other kind (strings, numbers, dates, null) pass as
 * they are; a record (`z.record`) or a schema this does not know lets any object through.
 */
export interface ResponseShape {
  fields?: Map<string, ResponseShape>;
  element?: ResponseShape;
  /** Any object passes whole. */
  open?: boolean;
}

const OPEN: ResponseShape = { open: true };
const LEAF: ResponseShape = {};

interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

function merge(a: ResponseShape, b: ResponseShape): ResponseShape {
  if (a.open || b.open) return OPEN;
  const merged: ResponseShape = {};
  if (a.fields || b.fields) {
    const fields = new Map(a.fields);
    for (const [key, shape] of b.fields ?? []) {
      const other = fields.get(key);
      fields.set(key, other ? merge(other, shape) : shape);
    }
    merged.fields = fields;
  }
  if (a.element && b.element) merged.element = merge(a.element, b.element);
  else if (a.element || b.element) merged.element = a.element ?? b.element;
  return merged;
}

/** The shape of a zod response schema (zod 4's definitions); anything else lets everything through. */
export function responseShape(schema: z.ZodType): ResponseShape {
  if (typeof schema !== 'object' || schema === null || !('_zod' in schema)) return OPEN;
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const fields = new Map<string, ResponseShape>();
      for (const [key, field] of Object.entries(def.shape ?? {})) fields.set(key, responseShape(field));
      return { fields };
    }
    case 'array':
      return { element: responseShape(def.element!) };
    case 'nullable':
    case 'optional':
    case 'default':
    case 'readonly':
      return responseShape(def.innerType!);
    case 'pipe':
      return responseShape(defOf(def.out!).type === 'transform' ? def.in! : def.out!);
    case 'union':
      return (def.options ?? []).map(responseShape).reduce(merge, LEAF);
    case 'intersection':
      return merge(responseShape(def.left!), responseShape(def.right!));
    case 'string':
    case 'number':
    case 'boolean':
    case 'literal':
    case 'enum':
    case 'null':
    case 'bigint':
    case 'date':
      return LEAF;
    default:
      return OPEN;
  }
}

const isPlainObject = (value: object) => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/**
 * The value with only what the shape names: an object loses the fields its schema does not
 * declare, at any depth. Copies only where something is dropped: a value the schema describes
 * whole is returned as it is.
 */
export function project(value: unknown, shape: ResponseShape): unknown {
  if (shape.open || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const element = shape.element;
    if (!element) return value;
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const projected = project(value[i], element);
      if (projected !== value[i]) {
        copy ??= value.slice();
        copy[i] = projected;
      }
    }
    return copy ?? value;
  }
  const fields = shape.fields;
  if (!fields || !isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = fields.get(key);
    if (!field) {
      copy ??= { ...record };
      delete copy[key];
      continue;
    }
    const projected = project(record[key], field);
    if (projected !== record[key]) {
      copy ??= { ...record };
      copy[key] = projected;
    }
  }
  return copy ?? value;
}
