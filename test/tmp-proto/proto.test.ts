import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
it('runs a ts worker (execArgv)', async () => {
  const w = new Worker(new URL('./boot2.mjs', import.meta.url), { execArgv: ['--import', 'tsx'], workerData: { url: new URL('./w.ts', import.meta.url).href } });
  const reply = await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); w.postMessage(7); });
  expect(reply).toEqual({ ok: 'function', m: 7 });
  await w.terminate();
});
it('runs a ts worker (register)', async () => {
  const w = new Worker(new URL('./boot.mjs', import.meta.url), { workerData: { url: new URL('./w.ts', import.meta.url).href } });
  const reply = await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); w.postMessage(7); });
  expect(reply).toEqual({ ok: 'function', m: 7 });
  await w.terminate();
});
