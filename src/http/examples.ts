import type { z } from 'zod';

// Requests carry `example` rather than `examples`: the reference leaves out the `examples` (and
// defaults) of a schema that transforms what it reads, which most request schemas do somewhere.

/** A request body (or any request schema) with its example, shown in the API reference and the sample collection. */
export function withExample<T extends z.ZodType>(schema: T, example: z.input<T>): T {
  return schema.meta({ example }) as T;
}

/** A query or path schema whose parameters carry examples (its refinements kept). */
export function withParamExamples<T extends z.ZodObject>(
  schema: T,
  examples: { [K in keyof T['shape']]?: z.input<T['shape'][K]> },
): T {
  const documented = Object.fromEntries(
    Object.entries(examples).map(([key, example]) => [key, (schema.shape[key] as z.ZodType).meta({ example })]),
  );
  return schema.safeExtend(documented) as unknown as T;
}

/** Hours ahead of UTC of the examples' calendar: Africa/Johannesburg, the default zone of tariffs (no daylight saving). */
const EXAMPLE_ZONE_OFFSET_HOURS = 2;

/**
 * The last whole calendar month before `now` in a zone `offsetHours` ahead of UTC, as instants
 * in UTC (`2026-09-30T22:00:00Z` is 1 October 00:00 at UTC+2): start inclusive, end exclusive.
 */
export function lastWholeMonth(now: Date, offsetHours = EXAMPLE_ZONE_OFFSET_HOURS): { start: string; end: string } {
  const local = new Date(now.getTime() + offsetHours * 3_600_000);
  const instant = (monthsBack: number) =>
    new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - monthsBack, 1) - offsetHours * 3_600_000)
      .toISOString()
      .replace('.000Z', 'Z');
  return { start: instant(1), end: instant(0) };
}

/** The period of the examples that take a time range: the last whole month when the process started. */
export const EXAMPLE_MONTH = lastWholeMonth(new Date());

/**
 * Ids and instants the examples share. The integer ids and serials of the examples are those of
 * the demo data of a fresh install; uuids are made anew by each install, so the examples' uuids are
 * placeholders (zeros but for the last digit), which the reference marks as such.
 */
export const EXAMPLE = {
  accountId: '00000000-0000-4000-8000-000000000001',
  userId: '00000000-0000-4000-8000-000000000002',
  createdAt: '2026-11-23T08:00:00.000Z',
} as const;

/** What a placeholder stands for, by its value. */
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  [EXAMPLE.accountId]: 'an organization id from GET /api/v1/auth/organizations',
  [EXAMPLE.userId]: 'a user id from GET /api/v1/organizations/{id}/members',
};

interface Parameter {
  description?: string;
  schema?: { example?: unknown };
}
type Paths = Record<string, Record<string, { parameters?: Parameter[] }>>;

/** The document with every parameter whose example is a placeholder saying so, and what to use instead. */
export function markPlaceholders<T extends { paths?: unknown }>(document: T): T {
  for (const operations of Object.values((document.paths ?? {}) as Paths)) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        const standsFor = PLACEHOLDERS[String(parameter.schema?.example)];
        if (standsFor === undefined) continue;
        const note = `The example is a placeholder: use ${standsFor}.`;
        parameter.description = parameter.description ? `${parameter.description}. ${note}` : note;
      }
    }
  }
  return document;
}
