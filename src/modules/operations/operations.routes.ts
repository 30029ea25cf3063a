import { createKeptDocument } from '../../http/kept-answers.ts';
import type { App } from '../../http/types.ts';
import { type OpenApiDocument, postmanCollection, type SampleValues } from './postman-collection.ts';

/** The public sample request collection, generated from the OpenAPI document and the sample values. */
export function registerCollectionRoute(
  app: App,
  baseUrl: string,
  samples: () => Promise<SampleValues | undefined>,
): void {
  const collection = createKeptDocument(app, async () =>
    postmanCollection(app.swagger() as unknown as OpenApiDocument, baseUrl, await samples()),
  );
  app.get('/api/v1/collection.json', { config: { public: true }, schema: { hide: true } }, (req, reply) =>
    collection(req, reply),
  );
}
