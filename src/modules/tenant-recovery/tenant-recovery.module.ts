import type { App } from '../../http/types.ts';
import { registerTenantRecoveryRoutes } from './tenant-recovery.routes.ts';
import { createTenantRecoveryService, type TenantRecoveryDeps } from './tenant-recovery.service.ts';

/** Who used the landlord's electricity: a block's grid supply against its tenants' grid meters. */
export function registerTenantRecoveryModule(app: App, deps: TenantRecoveryDeps): void {
  registerTenantRecoveryRoutes(app, createTenantRecoveryService(deps));
}
