import type { Database } from '../../db/types.ts';
import type { App } from '../../http/types.ts';
import type { SigningKeys } from '../auth/auth.model.ts';
import { registerSystemRoutes } from './system.routes.ts';

interface SystemDeps {
  db: Pick<Database, 'ping' | 'replica'>;
  keys: SigningKeys;
}

/** Liveness, readiness and the public key set. */
export function registerSystemModule(app: App, { db, keys }: SystemDeps): void {
  registerSystemRoutes(app, db, keys);
}
