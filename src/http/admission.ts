import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import { AppError } from './errors.ts';
import { createFairScheduler, type FairScheduler, type Step } from './fair-scheduler.ts';
import { isListEnvelope } from './responses.ts';

export type { Step } from './fair-scheduler.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's handler admits its own work (cost, comparisons, profiles, readings): no page or write slot is held for it. */
    ownAdmission?: boolean;
  }
  interface FastifyRequest {
    /**
     * Fires when the request's deadline passes (503) or its client goes away: what it waits for, it
     * waits for no more. Made when first read: a request that never waits pays for no timer.
     */
    readonly deadline: AbortSignal;
    /** The request's reply, then its deadline once read (`deadline`). */
    deadlineState: { reply: FastifyReply; signal?: AbortSignal } | null;
  }
}

/** Who asks for work: a user (or a client address) and the signal of their request's end. */
export interface Caller {
  userId: string;
  signal?: AbortSignal | undefined;
}

/**
 * The one admission of work in the process (fair-scheduler.ts): `admit` runs `work` for the
 * caller and organization once the scheduler chooses it; work of many steps calls `step` between
 * them.
 */
export interface Admission {
  admit<T>(caller: Caller, organizationId: string, work: (step: Step) => Promise<T>): Promise<T>;
}

/** The sign-ins' admission: password hashes and checks, a core's work each, in a scheduler of their own. */
export interface SignInAdmission {
  /** Runs a password's hash or check once chosen, client addresses (`caller.userId`) in turn. */
  signIn<T>(caller: Caller, work: () => Promise<T>): Promise<T>;
}

export interface ProcessAdmission extends Admission, SignInAdmission {
  /** The first hook of every request: its deadline (`request.deadline`). */
  registerDeadline(app: FastifyInstance): void;
  /** After authentication: a user's requests in turn, pages and writes as work. */
  registerGate(app: FastifyInstance): void;
  registerGauges(registry: Registry): void;
}

/** The organization key of work that no organization asks for. */
const SIGN_INS = 'sign-ins';
export const LARGE_BODIES = 'large bodies';

export interface AdmissionLimits {
  /** Work run at once in the process (and as many more for the request chosen next). */
  slots: number;
  perUser: number;
  perOrganization: number;
  /** Requests one user has in progress at once; more wait their turn, unread. */
  requestsPerUser: number;
  /** Password hashes and checks run at once: each is a core's work, so a flood of sign-ins takes no more cores than this. */
  signIns: number;
  /** How long a request may wait and work in all, in seconds. */
  deadlineS: number;
}

/** Waiting work in the process at most, and of one user (per slot of theirs), and a user's waiting requests. */
const QUEUE = 256;
const QUEUE_PER_USER_SLOT = 2;
const REQUESTS_QUEUED_PER_USER = 64;

const deadlinePassed = (seconds: number) =>
  new AppError(503, 'Service unavailable', `No answer within the request's deadline of ${seconds} s; retry shortly`, {
    headers: { 'retry-after': '1' },
    code: 'DEADLINE_EXCEEDED',
  });
/** Why a request stops waiting when its client goes away: a 400 that nobody reads. */
const CLIENT_GONE = new AppError(400, 'Invalid request body', 'The client closed the connection before the answer');
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The organization a request addresses (its account_id), else its user's own key. */
function organizationOf(request: FastifyRequest): string {
  const query = request.query as { account_id?: unknown } | undefined;
  const body = request.body as { account_id?: unknown } | undefined;
  const accountId = query?.account_id ?? body?.account_id;
  return typeof accountId === 'string' ? accountId : `user:${request.auth.userId}`;
}

const isGated = ({ routeOptions: { url, config } }: FastifyRequest) =>
  url !== undefined && !config.public && !config.serviceRole;

function registerGauge(registry: Registry, scheduler: FairScheduler, name: string, help: string): void {
  new Gauge({
    name,
    help,
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { running, waiting } = scheduler.load();
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });
}

/**
 * Builds the process's admission and its hooks:
 * - every request has one deadline (`request.deadline`): waiting and working together never pass it;
 * - every authenticated request first takes one of its user's `requestsPerUser` slots (its body is
 *   read after), held until its answer is sent;
 * - expensive work is admitted (`admit`) to the work scheduler for as long as it runs;
 * - a password's hash or check (`signIn`), pure CPU, to a scheduler of its own with `signIns` slots;
 * - a page of a list, and a write once its body is valid, hold a slot until their answer is
 *   written, in a scheduler of their own with the same limits: work of milliseconds never waits
 *   for a year's bill to end (routes that admit their own work are left to it).
 */
export function createAdmission(limits: AdmissionLimits, now?: () => number): ProcessAdmission {
  const workLimits = {
    slots: limits.slots,
    reserve: limits.slots,
    perUser: limits.perUser,
    perOrganization: limits.perOrganization,
    queue: QUEUE,
    queuePerUser: limits.perUser * QUEUE_PER_USER_SLOT,
    ...(now ? { now } : {}),
  };
  const work = createFairScheduler(workLimits);
  const pagesAndWrites = createFairScheduler(workLimits);
  const signIns = createFairScheduler({ ...workLimits, slots: limits.signIns, reserve: 0 });
  const requests = createFairScheduler({
    slots: Number.POSITIVE_INFINITY,
    reserve: 0,
    perUser: limits.requestsPerUser,
    perOrganization: Number.POSITIVE_INFINITY,
    queue: Number.POSITIVE_INFINITY,
    queuePerUser: REQUESTS_QUEUED_PER_USER,
  });
  const admission: Admission & SignInAdmission = {
    admit: ({ userId, signal }, organizationId, fn) => work.run({ userId, organizationId, signal }, fn),
    signIn: ({ userId, signal }, fn) => signIns.run({ userId, organizationId: SIGN_INS, signal }, fn),
  };

  /** Holds a slot of the pages-and-writes scheduler until the answer is written or the connection closes. */
  async function holdPageOrWrite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const ticket = { userId: request.auth.userId, organizationId: organizationOf(request), signal: request.deadline };
    const release = await pagesAndWrites.hold(ticket);
    reply.raw.once('close', release);
    answered.set(request, release);
  }
  const answered = new WeakMap<FastifyRequest, () => void>();

  /** The signal of a request's deadline, from the time its reply has taken so far. */
  function startDeadline(reply: FastifyReply): AbortSignal {
    // Closed before its answer was sent: its client is gone, and what it waits for is not needed.
    const clientGone = () => reply.raw.destroyed && !reply.raw.writableFinished;
    if (clientGone()) return AbortSignal.abort(CLIENT_GONE);
    const controller = new AbortController();
    const left = Math.max(0, limits.deadlineS * 1000 - reply.elapsedTime);
    const timer = setTimeout(() => controller.abort(deadlinePassed(limits.deadlineS)), left);
    reply.raw.once('close', () => {
      clearTimeout(timer);
      if (clientGone()) controller.abort(CLIENT_GONE);
    });
    return controller.signal;
  }

  /** The first hook of every request: its deadline, made when first read. */
  function registerDeadline(app: FastifyInstance): void {
    app.decorateRequest('deadlineState', null);
    app.decorateRequest('deadline', {
      getter(this: FastifyRequest) {
        const state = this.deadlineState!;
        state.signal ??= startDeadline(state.reply);
        return state.signal;
      },
    });
    app.addHook('onRequest', (request, reply, done) => {
      request.deadlineState = { reply };
      done();
    });
  }

  function registerGauges(registry: Registry): void {
    registerGauge(
      registry,
      work,
      'ums_expensive_requests',
      'Expensive work (bills, profiles, comparisons, recoveries, checks, bodies, stores) running and waiting for its turn',
    );
    registerGauge(
      registry,
      pagesAndWrites,
      'ums_pages_and_writes',
      'Pages of lists and writes running and waiting for their turn',
    );
    registerGauge(registry, signIns, 'ums_sign_ins', 'Password hashes and checks running and waiting for their turn');
    registerGauge(
      registry,
      requests,
      'ums_requests_in_flight',
      'Requests of users in progress and waiting for their turn',
    );
  }

  /** Hooks that run after authentication: a user's requests in turn, pages and writes as work. */
  function registerGate(app: FastifyInstance): void {
    app.addHook('onRequest', async (request, reply) => {
      if (!isGated(request)) return;
      const { userId } = request.auth;
      const ticket = { userId, organizationId: userId };
      // Its deadline is made only when the request must wait its turn.
      const release = requests.holdNow(ticket) ?? (await requests.hold({ ...ticket, signal: request.deadline }));
      reply.raw.once('close', release);
      const { config, schema } = request.routeOptions;
      const responses = schema?.response as Record<number, unknown> | undefined;
      if (!config.ownAdmission && isListEnvelope(responses?.[200])) await holdPageOrWrite(request, reply);
    });
    app.addHook('preHandler', async (request, reply) => {
      const { config } = request.routeOptions;
      if (!isGated(request) || config.ownAdmission || !WRITE_METHODS.has(request.method)) return;
      await holdPageOrWrite(request, reply);
    });
    app.addHook('onSend', async (request, _reply, payload) => {
      answered.get(request)?.();
      return payload;
    });
  }

  return { ...admission, registerDeadline, registerGate, registerGauges };
}
