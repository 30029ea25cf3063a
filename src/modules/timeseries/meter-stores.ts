/**
 * A meter's stores one after the other in this process. Two stores of the same meter's readings
 * conflict on its rows: the second would wait for the first's commit inside its transaction,
 * holding a database connection the whole time (a client posting the same meter's readings over
 * many connections would hold every connection of the pool). Here it waits holding none. Stores of
 * other meters run at once; another process's stores of the meter still wait in the database.
 */
export function createMeterStores() {
  /** Per meter with a store running or waiting, the end of its last one. */
  const lastOf = new Map<number, Promise<void>>();

  return {
    /** Runs store once the meter's earlier stores in this process have ended (stored or failed). */
    run<T>(meterId: number, store: () => Promise<T>): Promise<T> {
      const mine = (lastOf.get(meterId) ?? Promise.resolve()).then(store);
      const ended = mine.then(
        () => undefined,
        () => undefined,
      );
      lastOf.set(meterId, ended);
      void ended.then(() => {
        if (lastOf.get(meterId) === ended) lastOf.delete(meterId);
      });
      return mine;
    },
  };
}
