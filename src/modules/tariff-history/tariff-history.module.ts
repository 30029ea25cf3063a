import type { App } from '../../http/types.ts';
import type { TariffHistoryRecorder } from './tariff-history.model.ts';
import { tariffHistoryRepository } from './tariff-history.repository.ts';
import { registerTariffHistoryRoutes } from './tariff-history.routes.ts';
import { createTariffHistoryService, type TariffHistoryDeps } from './tariff-history.service.ts';

/**
 * What writes the history: given to the modules that change tariffs (meters, dashboard configs,
 * transitions), which call it inside their own transactions.
 */
export const createTariffHistoryRecorder = (): TariffHistoryRecorder => ({
  recordMeters: tariffHistoryRepository.recordMeters,
  recordConfigs: tariffHistoryRepository.recordConfigs,
});

/** The reads of the tariff history of meters and of dashboard config sources. */
export function registerTariffHistoryModule(app: App, deps: TariffHistoryDeps): void {
  registerTariffHistoryRoutes(app, createTariffHistoryService(deps));
}
