import type { Database } from '../../src/db/types.ts';

/**
 * The database with a switch: once held, the next query that reads `table` (the readings by
 * default; or, in a transaction, writes it, a COPY included) waits until released. A request that reaches it stays in flight, having passed its access checks and
 * its admission, however fast the database is (the embedded one runs one query at a time). The
 * app must keep no months of readings (KEPT_MONTHS_BYTES=0), else a request may read none.
 */
export function holdable(db: Database, table = 'readings') {
  let armed: { reached: () => void; released: Promise<void> } | undefined;
  async function holdIf(touchesTable: boolean): Promise<void> {
    if (!armed || !touchesTable) return;
    const { reached, released } = armed;
    armed = undefined;
    reached();
    await released;
  }
  const touching = new RegExp(`\\b${table}\\b`);
  const touches = (text: string) => touching.test(text);
  const wrapped: Database = {
    ...db,
    async query(text, params, options) {
      await holdIf(touches(text));
      return db.query(text, params, options);
    },
    reads: (...keys) => ({
      async query(text, params, options) {
        await holdIf(touches(text));
        return db.reads(...keys).query(text, params, options);
      },
      exec: (script) => db.reads(...keys).exec(script),
    }),
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          ...tx,
          query: async (text, params, options) => {
            await holdIf(touches(text));
            return tx.query(text, params, options);
          },
          copyBinary: async (copied, columns, data) => {
            await holdIf(copied === table);
            return tx.copyBinary(copied, columns, data);
          },
        }),
      ),
  };
  function hold() {
    let release!: () => void;
    let reached!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reachedPromise = new Promise<void>((resolve) => {
      reached = resolve;
    });
    armed = { reached, released };
    return { reached: reachedPromise, release };
  }
  return { db: wrapped, hold };
}
