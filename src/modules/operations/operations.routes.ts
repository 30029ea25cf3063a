import type { App } from '../../http/types.ts';
import { type OpenApiDocument, postmanCollection } from './postman-collection.ts';

/** The public sample request collection, generated from the OpenAPI document. */
export function registerCollectionRoute(app: App, baseUrl: string): void {
  let collection: ReturnType<typeof postmanCollection> | undefined;
  app.get('/api/v1/collection.json', { config: { public: true }, schema: { hide: true } }, async () => {
    collection ??= postmanCollection(app.swagger() as unknown as OpenApiDocument, baseUrl);
    return collection;
  });
}
