import type { App } from '../../http/types.ts';
import { registerCollectionRoute } from './operations.routes.ts';
import type { SampleValues } from './postman-collection.ts';

interface OperationsDeps {
  /** Values the collection's variables take (the demo's ids), when the service has them. */
  samples: () => Promise<SampleValues | undefined>;
}

/** The public sample request collection. */
export function registerOperationsModule(app: App, { samples }: OperationsDeps): void {
  registerCollectionRoute(app, samples);
}
