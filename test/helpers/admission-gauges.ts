import type { App } from '../../src/http/types.ts';

/** What an admission's gauge in /metrics (`name{state="running"|"waiting"}`) reads now. */
export async function admissionGauge(app: App, name: string, state: 'running' | 'waiting'): Promise<number> {
  const metrics = await app.inject({ method: 'GET', url: '/metrics' });
  return Number(new RegExp(`^${name}\\{state="${state}"\\} (\\d+)$`, 'm').exec(metrics.body)?.[1]);
}
