import type { App } from '../../http/types.ts';
import { type OpenApiDocument, postmanCollection, type SampleValues } from './postman-collection.ts';

/** The public sample request collection, generated from the OpenAPI document and the sample values. */
export function registerCollectionRoute(
  app: App,
  baseUrl: string,
  samples: () => Promise<SampleValues | undefined>,
): void {
  let collection: Promise<ReturnType<typeof postmanCollection>> | undefined;
  app.get('/api/v1/collection.json', { config: { public: true }, schema: { hide: true } }, async () => {
    collection ??= samples()
      .then((values) => postmanCollection(app.swagger() as unknown as OpenApiDocument, baseUrl, values))
      .catch((error: unknown) => {
        collection = undefined; // not kept: the next request tries again
        throw error;
      });
    return collection;
  });
}
