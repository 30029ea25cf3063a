import { afterEach, describe, expect, it } from 'vitest';
import { type Admission, LARGE_BODIES } from '../../../http/admission.ts';
import { AppError } from '../../../http/errors.ts';
import { createFairScheduler } from '../../../http/fair-scheduler.ts';
import { dataOf } from '../store-readings.ts';
import { createIngestParser, IN_THREAD_MAX_BYTES, IN_THREAD_MAX_READINGS, type IngestParser } from './ingest-parser.ts';
import { parseIngest, prepareIngest } from './parse-ingest.ts';

const ACCOUNT = '2b1d9f0e-8a8b-4c1e-9a51-3f2b8e7d6c5a';
const FROM = Date.parse('2025-01-01T00:00:00Z');

/** A body of n 30-minute readings, every third with all its values, the others with import_kwh only. */
function readingsBody(n: number, change: (readings: Record<string, unknown>[]) => void = () => {}): string {
  const readings: Record<string, unknown>[] = Array.from({ length: n }, (_, i) => ({
    ts: new Date(FROM + i * 1_800_000).toISOString(),
    import_kwh: i / 8,
    ...(i % 3 === 0 ? { export_kwh: 0.5, kvarh: 0.25, power_kw: 3, kva: 4 } : {}),
  }));
  change(readings);
  return JSON.stringify({ account_id: ACCOUNT, meter_sn: 'M-1', readings });
}

/** What parseIngest throws for the text on this thread. */
function refusalInThread(text: string): unknown {
  try {
    parseIngest(text);
  } catch (error) {
    return error;
  }
  throw new Error('parsed');
}

/** An admission that runs everything at once and records whose work it admitted, and as what. */
function recordingAdmission(): Admission & { admitted: string[] } {
  const admitted: string[] = [];
  return {
    admitted,
    admit: ({ userId }, organization, fn) => {
      admitted.push(`${userId} (${organization})`);
      return fn(async () => {});
    },
  };
}

/** The fair scheduler with one slot, as an admission. */
function oneAtATime() {
  const scheduler = createFairScheduler({
    slots: 1,
    reserve: 0,
    perUser: 1,
    perOrganization: 1,
    queue: 10,
    queuePerUser: 10,
  });
  const admission: Admission = {
    admit: (caller, organizationId, fn) => scheduler.run({ ...caller, organizationId }, fn),
  };
  return { admission, scheduler };
}

const parsers: IngestParser[] = [];
function parserWith(admission: Admission): IngestParser {
  const parser = createIngestParser(admission);
  parsers.push(parser);
  return parser;
}
afterEach(async () => {
  await Promise.all(parsers.splice(0).map((parser) => parser.close()));
});

const u = (userId: string) => ({ userId });

describe('the ingest parser', () => {
  it('parses a small body on the main thread and a large one in the worker, to the same readings', async () => {
    const parsing = recordingAdmission();
    const parser = parserWith(parsing);
    const small = readingsBody(100);
    const large = readingsBody(5000);
    expect(small.length).toBeLessThanOrEqual(IN_THREAD_MAX_BYTES);
    expect(large.length).toBeGreaterThan(IN_THREAD_MAX_BYTES);

    expect(await parser.parse(u('small-user'), Buffer.from(small))).toEqual(parseIngest(small));
    expect(parsing.admitted).toEqual([]);
    const parsed = await parser.parse(u('large-user'), Buffer.from(large));
    expect(parsing.admitted).toEqual([`large-user (${LARGE_BODIES})`]);
    expect(parsed).toEqual(parseIngest(large));
    expect({ account: parsed.account_id, meter: parsed.meter_sn, n: parsed.readings.length }).toEqual({
      account: ACCOUNT,
      meter: 'M-1',
      n: 5000,
    });
    expect([...parsed.readings.ts.subarray(4998)]).toEqual([FROM + 4998 * 1_800_000, FROM + 4999 * 1_800_000]);
    expect([...parsed.readings.exportKwh.subarray(0, 2)]).toEqual([0.5, Number.NaN]);
  });

  it('prepares a large batch in the worker as the main thread would, and a small one on the main thread', async () => {
    const parsing = recordingAdmission();
    const parser = parserWith(parsing);
    const meter = { id: 7, interval_minutes: 30 };
    const { readings } = parseIngest(readingsBody(IN_THREAD_MAX_READINGS + 1));
    const inThread = prepareIngest(readings, meter);
    const inWorker = await parser.prepare(u('u'), readings, meter);
    expect(parsing.admitted).toEqual([`u (${LARGE_BODIES})`]);
    expect(dataOf(inWorker)).toEqual(dataOf(inThread));
    expect(inWorker.deltas.hourly.rows()).toEqual(inThread.deltas.hourly.rows());
    expect(inWorker.readings.powerKw[1]).toBe(0.25);

    const small = parseIngest(readingsBody(IN_THREAD_MAX_READINGS)).readings;
    expect(dataOf(await parser.prepare(u('u'), small, meter))).toEqual(dataOf(prepareIngest(small, meter)));
    expect(parsing.admitted).toEqual([`u (${LARGE_BODIES})`]);
  });

  it('hands a large body that owns its memory to the worker without a copy, and copies one that shares it', async () => {
    const parser = parserWith(recordingAdmission());
    const text = readingsBody(3000);
    const owned = Buffer.from(text);
    expect((await parser.parse(u('u'), owned)).readings.length).toBe(3000);
    expect(owned.buffer.byteLength).toBe(0);

    const shared = Buffer.from(`${text}<more of a larger buffer>`).subarray(0, Buffer.byteLength(text));
    expect((await parser.parse(u('u'), shared)).readings.length).toBe(3000);
    expect(shared.toString()).toBe(text);
  });

  it('refuses a large body in the worker as the main thread refuses it, with the same error', async () => {
    const parser = parserWith(recordingAdmission());
    const invalid = readingsBody(5000, (readings) => {
      readings[4321]!.import_kwh = -1;
      readings[4322]!.colour = 'red';
    });
    const refusal = await parser.parse(u('u'), Buffer.from(invalid)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toEqual(refusalInThread(invalid));
    expect((refusal as AppError).detail).toBe(
      'readings.4321.import_kwh: Too small: expected number to be >=0; readings.4322.colour: Unrecognized key "colour"',
    );

    const malformed = readingsBody(5000).slice(0, -1);
    const poisoned = readingsBody(5000).replace('"meter_sn"', '"__proto__":{},"meter_sn"');
    for (const text of [malformed, poisoned]) {
      const error = (await parser.parse(u('u'), Buffer.from(text)).catch((e: unknown) => e)) as Error & {
        code: string;
      };
      expect({ code: error.code, status: (error as unknown as { statusCode: number }).statusCode }).toEqual({
        code: 'FST_ERR_CTP_INVALID_JSON_BODY',
        status: 400,
      });
    }
  });

  it('neither parses nor prepares the body of a request that ends while it waits for its turn', async () => {
    const { admission, scheduler } = oneAtATime();
    const parser = parserWith(admission);
    const text = readingsBody(3000);
    let release!: () => void;
    const held = admission.admit(u('holder'), LARGE_BODIES, () => new Promise<void>((resolve) => (release = resolve)));
    const clientGone = new AbortController();
    const caller = { userId: 'a', signal: clientGone.signal };
    const parse = parser.parse(caller, Buffer.from(text));
    const { readings } = parseIngest(text);
    const prepare = parser.prepare(caller, readings, { id: 1, interval_minutes: 30 });
    expect(scheduler.load()).toEqual({ running: 1, waiting: 2 });
    const reason = new Error('the client went away');
    clientGone.abort(reason);
    await expect(parse).rejects.toBe(reason);
    await expect(prepare).rejects.toBe(reason);
    expect(scheduler.load()).toEqual({ running: 1, waiting: 0 });
    release();
    await held;
    expect((await parser.parse(u('a'), Buffer.from(text))).readings.length).toBe(3000);
  });

  it('fails the body being parsed when the worker stops, and starts another worker for the next', async () => {
    const parser = parserWith(recordingAdmission());
    const text = readingsBody(3000);
    // A body of its own each time: a large body is handed over to the worker, not usable after.
    const body = () => Buffer.from(text);
    const parsing = parser.parse(u('u'), body());
    await parser.close();
    await expect(parsing).rejects.toThrow('The ingest worker stopped');
    expect((await parser.parse(u('u'), body())).readings.length).toBe(3000);
  });
});
