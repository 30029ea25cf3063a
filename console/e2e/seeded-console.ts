import { DEMO_EMAIL, DEMO_PASSWORD, type DemoSeed, seedDemo } from '../../src/seed/demo.ts';
import { call } from '../../test/helpers/http.ts';
import { type ConsoleOptions, type RunningConsole, startConsole } from './running-console.ts';

/** The console served with the demo organization, and the demo user's token for the API. */
export interface SeededConsole extends RunningConsole {
  seed: DemoSeed;
  token: string;
}

/** Starts the console (see startConsole), seeds the demo and signs its user in through the API. */
export async function startSeededConsole(options: ConsoleOptions = {}): Promise<SeededConsole> {
  const running = await startConsole(options);
  const seed = (await seedDemo(running.t))!;
  const login = await call(running.t.app, 'POST', '/api/v1/auth/login', {
    body: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
  });
  return { ...running, seed, token: login.body.data.access_token };
}
