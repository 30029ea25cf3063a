import { describe, expect, it } from 'vitest';
import { MAX_BUSY_ATTEMPTS, untilNotBusy } from './until-not-busy.ts';

const busy = (retryAfter?: string) =>
  new Response('{"success":false}', {
    status: 429,
    headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  });

/** Answers in turn (the last one again and again), recording each send, and the waits asked for. */
function server(...answers: (() => Response)[]) {
  const waits: number[] = [];
  let sent = 0;
  return {
    waits,
    sent: () => sent,
    send: async () => answers[Math.min(sent++, answers.length - 1)]!(),
    wait: async (ms: number) => void waits.push(ms),
  };
}

describe('a request sent until the server is not busy', () => {
  it('is sent again after each 429, waiting what Retry-After says, and the first other answer is returned', async () => {
    const s = server(
      () => busy('2'),
      () => busy(),
      () => busy('0'),
      () => new Response('{"data":1}', { status: 200 }),
    );
    const response = await untilNotBusy(s.send, s.wait);
    expect({ status: response.status, body: await response.json(), sent: s.sent(), waits: s.waits }).toEqual({
      status: 200,
      body: { data: 1 },
      sent: 4,
      waits: [2000, 1000, 0],
    });
  });

  it('returns a refusal other than 429 at once, and the 429 itself after MAX_BUSY_ATTEMPTS sends', async () => {
    const refused = server(() => new Response('{}', { status: 400 }));
    expect((await untilNotBusy(refused.send, refused.wait)).status).toBe(400);
    expect(refused.sent()).toBe(1);

    const alwaysBusy = server(() => busy('1'));
    expect((await untilNotBusy(alwaysBusy.send, alwaysBusy.wait)).status).toBe(429);
    expect({ sent: alwaysBusy.sent(), waits: alwaysBusy.waits.length }).toEqual({
      sent: MAX_BUSY_ATTEMPTS,
      waits: MAX_BUSY_ATTEMPTS - 1,
    });
  });
});
