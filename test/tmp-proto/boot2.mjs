import { workerData } from 'node:worker_threads';
await import(workerData.url);
