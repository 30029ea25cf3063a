import type { FastifySchema } from 'fastify';

/** A request body of another media type than JSON, as the API reference declares it: a string, what it holds, an example. */
export interface TextBody {
  type: 'string';
  description: string;
  examples: [string];
}

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The route's request bodies besides its JSON one, by media type (`text/csv`): for the API
     * reference only, as the route's own content-type parser reads them.
     */
    textBodies?: Record<string, TextBody>;
  }
}

/**
 * A route's schema as the reference's transform made it, with its JSON body and its text bodies
 * each under its media type (`content`), so that the document states every type the route takes.
 */
export function withTextBodies(transformed: { schema: FastifySchema; url: string }) {
  const { textBodies, ...schema } = transformed.schema;
  if (!textBodies) return transformed;
  const texts = Object.entries(textBodies).map(([type, body]) => [type, { schema: { ...body } }]);
  const content = { 'application/json': { schema: schema.body }, ...Object.fromEntries(texts) };
  return { ...transformed, schema: { ...schema, body: { content } } };
}
