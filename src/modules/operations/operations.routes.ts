import type { App } from '../../http/types.ts';
import { type OpenApiDocument, postmanCollection, type SampleValues } from './postman-collection.ts';

type Collection = ReturnType<typeof postmanCollection>;

/** The collection with its baseUrl variable set to the address it is fetched from. */
function addressedTo(collection: Collection, baseUrl: string): Collection {
  return {
    ...collection,
    variable: collection.variable.map((variable) =>
      variable.key === 'baseUrl' ? { ...variable, value: baseUrl } : variable,
    ),
  };
}

/**
 * The public sample request collection, generated once from the OpenAPI document and the sample
 * values; its baseUrl is the address the client fetched it from (a server listening on all
 * addresses has no address of its own to give).
 */
export function registerCollectionRoute(app: App, samples: () => Promise<SampleValues | undefined>): void {
  let made: Promise<Collection> | undefined;
  const collection = () => {
    made ??= samples()
      .then((values) => postmanCollection(app.swagger() as unknown as OpenApiDocument, '', values))
      .catch((error: unknown) => {
        made = undefined;
        throw error;
      });
    return made;
  };
  app.get('/api/v1/collection.json', { config: { public: true }, schema: { hide: true } }, async (request) =>
    addressedTo(await collection(), `${request.protocol}://${request.host}`),
  );
}
