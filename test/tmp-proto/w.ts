import { parentPort } from 'node:worker_threads';
import { planHourlyPricing } from '../../src/modules/cost/engine/index.ts';
parentPort!.on('message', (m) => parentPort!.postMessage({ ok: typeof planHourlyPricing, m }));
