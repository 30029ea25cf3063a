import type { App } from '../../http/types.ts';
import { registerInvoiceRoutes } from './invoices.routes.ts';
import { createInvoicesService, type InvoicesDeps } from './invoices.service.ts';

/** The utility's invoices of a block's energy source, and their check against the computed bill. */
export function registerInvoicesModule(app: App, deps: InvoicesDeps): void {
  registerInvoiceRoutes(app, createInvoicesService(deps));
}
