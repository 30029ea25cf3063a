/**
 * A meter's stores one after the other in this process (a store of several meters waits for each
 * one's). Two stores of the same meter's readings conflict on its rows: the second would wait for
 * the first's commit inside its transaction, holding a database connection the whole time (a
 * client posting the same meter's readings over many connections would hold every connection of
 * the pool). Here it waits holding none. Stores of other meters run at once; another process's
 * stores of the meter still wait in the database.
 */
export function createMeterStores() {
  /** Per meter with a store running or waiting, the end of its last one. */
  const lastOf = new Map<number, Promise<void>>();

  return {
    /** Runs store once the meters' earlier stores in this process have ended (stored or failed). */
    run<T>(meterIds: readonly number[], store: () => Promise<T>): Promise<T> {
      const mine = Promise.all(meterIds.map((id) => lastOf.get(id))).then(store);
      const ended = mine.then(
        () => undefined,
        () => undefined,
      );
      for (const id of meterIds) lastOf.set(id, ended);
      void ended.then(() => {
        for (const id of meterIds) if (lastOf.get(id) === ended) lastOf.delete(id);
      });
      return mine;
    },
  };
}
