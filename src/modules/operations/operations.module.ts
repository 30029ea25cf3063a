import type { App } from '../../http/types.ts';
import { registerCollectionRoute } from './operations.routes.ts';

export interface OperationsDeps {
  /** The address the sample requests are written for. */
  baseUrl: string;
}

/** The public sample request collection. */
export function registerOperationsModule(app: App, { baseUrl }: OperationsDeps): void {
  registerCollectionRoute(app, baseUrl);
}
