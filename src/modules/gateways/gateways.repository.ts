import { type ListParams, listPage } from '../../db/list-page.ts';
import { SqlParams } from '../../db/sql-params.ts';
import { insertRow, updateRow } from '../../db/sql-writes.ts';
import type { Executor } from '../../db/types.ts';
import { GATEWAY_SORT } from './gateways.schemas.ts';

export interface Gateway {
  id: number;
  account_id: string;
  name: string;
  description: string | null;
  meter_ids: number[];
  last_seen_at: Date | null;
  /** Always null: a deleted gateway is gone, its key with it. */
  revoked_at: null;
  created_at: Date;
  updated_at: Date;
}

/** A gateway found by its key's hash: what a push is checked against. */
export interface GatewayOfKey {
  id: number;
  account_id: string;
  meter_ids: number[];
}

const METER_IDS = 'ARRAY(SELECT gm.meter_id FROM gateway_meters gm WHERE gm.gateway_id = g.id ORDER BY gm.meter_id)';
const COLUMNS = `g.id, g.account_id, g.name, g.description, ${METER_IDS} AS meter_ids, g.last_seen_at,
  NULL AS revoked_at, g.created_at, g.updated_at`;
const TABLE = { table: 'gateways', writable: ['name', 'description', 'key_hash'], returning: 'id' };

export const gatewaysRepository = {
  /** By id alone, so the caller can tell a foreign gateway (403) from a missing one (404). */
  async find(db: Executor, id: number) {
    const [row] = await db.query<Gateway>(`SELECT ${COLUMNS} FROM gateways g WHERE g.id = $1`, [id]);
    return row;
  },

  async findByKeyHash(db: Executor, keyHash: Buffer) {
    const [row] = await db.query<GatewayOfKey>(
      `SELECT g.id, g.account_id, ${METER_IDS} AS meter_ids FROM gateways g WHERE g.key_hash = $1`,
      [keyHash],
    );
    return row;
  },

  /** Whether the gateway still has this key: its row locked until the transaction ends, last_seen_at set to now. */
  async touchWithKey(db: Executor, id: number, keyHash: Buffer) {
    const rows = await db.query(
      'UPDATE gateways SET last_seen_at = now() WHERE id = $1 AND key_hash = $2 RETURNING id',
      [id, keyHash],
    );
    return rows.length > 0;
  },

  list(db: Executor, accountId: string, list: ListParams) {
    const params = new SqlParams();
    return listPage<Gateway>(
      db,
      {
        select: COLUMNS,
        from: 'gateways g',
        where: [`g.account_id = ${params.add(accountId)}`],
        params,
        search: { columns: ['g.name', 'g.description'] },
        sortColumns: GATEWAY_SORT,
        tiebreak: 'g.id',
      },
      list,
    );
  },

  /** The new gateway's id. */
  async insert(
    db: Executor,
    accountId: string,
    values: { name: string; description?: string | null; key_hash: Buffer },
  ) {
    return (await insertRow<{ id: number }>(db, TABLE, accountId, values)).id;
  },

  /** Locks the organization's gateway until the transaction ends; whether it exists. */
  async lock(db: Executor, accountId: string, id: number) {
    const rows = await db.query('SELECT id FROM gateways WHERE id = $1 AND account_id = $2 FOR UPDATE', [
      id,
      accountId,
    ]);
    return rows.length > 0;
  },

  update: (
    db: Executor,
    accountId: string,
    id: number,
    values: { name?: string; description?: string | null; key_hash?: Buffer },
  ) => updateRow<{ id: number }>(db, TABLE, accountId, id, values),

  /** The gateway's meters become meterIds, all of the organization (their foreign key holds it). */
  async setMeters(db: Executor, accountId: string, id: number, meterIds: readonly number[]) {
    await db.query('DELETE FROM gateway_meters WHERE gateway_id = $1', [id]);
    await db.query(
      `INSERT INTO gateway_meters (gateway_id, meter_id, account_id)
       SELECT $1, meter_id, $2 FROM unnest($3::int[]) AS meter_id`,
      [id, accountId, meterIds],
    );
  },

  async delete(db: Executor, accountId: string, id: number) {
    await db.query('DELETE FROM gateways WHERE id = $1 AND account_id = $2', [id, accountId]);
  },
};
