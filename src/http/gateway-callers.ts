import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/types.ts';
import type { AuthContext, GatewayCaller } from './auth-context.ts';
import { badRequest, forbidden } from './errors.ts';

/** What authentication and the access guard need of the gateways' keys (built by the gateways module). */
export interface GatewayKeys {
  /** The gateway whose key this is, read from the database; undefined when none has it (unknown, rotated, deleted). */
  check(key: string): Promise<GatewayCaller | undefined>;
  /**
   * Within a write's transaction: whether the gateway still has the key it was checked with, its row
   * locked until the transaction ends (a rotation or a delete waits for the write), and its
   * last_seen_at set to now.
   */
  confirm(tx: Executor, gateway: GatewayCaller): Promise<boolean>;
}

/** The key of `authorization: Gateway <key>`, if the request carries one. */
export function gatewayKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Gateway\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** A gateway as the caller of a request: no user, its own admission turns. */
export function gatewayAuth(gateway: GatewayCaller): AuthContext {
  return { userId: `gateway:${gateway.id}`, email: '', sessionId: '', gateway };
}

/** The organization a request addresses: the account_id sent, or a gateway's own when it sent none (400 for a person). */
export function addressedAccount(auth: AuthContext, accountId: string | undefined): string {
  const account = accountId ?? auth.gateway?.accountId;
  if (account === undefined) throw badRequest('account_id: Invalid input: expected string, received undefined');
  return account;
}

/** A gateway may push the readings of the meters wired to it only (403 for another meter of its organization). */
export function assertGatewayMeter(auth: AuthContext, meter: { id: number; meter_sn: string }): void {
  if (auth.gateway && !auth.gateway.meterIds.includes(meter.id)) {
    throw forbidden(`Meter ${meter.meter_sn} is not wired to this gateway`);
  }
}
