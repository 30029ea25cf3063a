import type { Executor } from '../../db/types.ts';
import type { GatewayKeys } from '../../http/gateway-callers.ts';
import { GATEWAY_KEY_PREFIX, hashGatewayKey } from './gateway-key.ts';
import { gatewaysRepository as repo } from './gateways.repository.ts';

/** Longer than any key this service makes: such a text is refused without a lookup. */
const MAX_KEY_LENGTH = 128;

/**
 * The gateways' keys as authentication and the access guard check them: on the database at every
 * push (one indexed lookup of the key's hash), so a rotated or deleted key opens nothing from the
 * moment its change commits, in every process.
 */
export function createGatewayKeys(db: Executor): GatewayKeys {
  return {
    async check(key) {
      if (!key.startsWith(GATEWAY_KEY_PREFIX) || key.length > MAX_KEY_LENGTH) return undefined;
      const keyHash = hashGatewayKey(key);
      const gateway = await repo.findByKeyHash(db, keyHash);
      if (!gateway) return undefined;
      return {
        id: gateway.id,
        accountId: gateway.account_id,
        meterIds: gateway.meter_ids,
        keyHash: keyHash.toString('hex'),
      };
    },
    confirm: (tx, gateway) => repo.touchWithKey(tx, gateway.id, Buffer.from(gateway.keyHash, 'hex')),
  };
}
