import type { App } from '../../src/http/types.ts';

/**
 * What an admission's gauge in /metrics (`name{state="running"|"waiting"}`) reads now. A scrape
 * refused, or without the gauge, throws: a loop waiting for a count must end, not read nothing for good.
 */
export async function admissionGauge(app: App, name: string, state: 'running' | 'waiting'): Promise<number> {
  const metrics = await app.inject({ method: 'GET', url: '/metrics' });
  if (metrics.statusCode !== 200) throw new Error(`/metrics answered ${metrics.statusCode}: ${metrics.body}`);
  const value = new RegExp(`^${name}\\{state="${state}"\\} (\\d+)$`, 'm').exec(metrics.body)?.[1];
  if (value === undefined) throw new Error(`/metrics has no ${name}{state="${state}"}`);
  return Number(value);
}
