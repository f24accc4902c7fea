/**
 * Identical reads made while one is running share its answer: the second caller waits for the first's
 * promise instead of asking the database again. Nothing is kept once the read settles, so no answer is ever
 * older than the request that receives it (each shared answer was read after that request arrived), and a
 * failure reaches every caller that shared it. Under load, when fifty open dashboards ask for the same
 * figures at once, the database answers once per burst instead of fifty times; on the embedded database,
 * whose one connection runs on the server's own thread, that is the difference between a queue and none.
 *
 * Only for reads whose answer depends on nothing but the key: the key must hold every input (season,
 * division scope, filters, page). Callers must treat the answer as read-only, since others hold it too.
 */
export type SharedReads<Key, Value> = {
  read(key: Key, run: () => Promise<Value>): Promise<Value>;
  /** Reads running now (for tests). */
  readonly inFlight: number;
};

export function sharedReads<Key, Value>(): SharedReads<Key, Value> {
  const running = new Map<Key, Promise<Value>>();
  return {
    read(key, run) {
      const existing = running.get(key);
      if (existing) return existing;
      const promise = (async () => {
        try {
          return await run();
        } finally {
          running.delete(key);
        }
      })();
      running.set(key, promise);
      return promise;
    },
    get inFlight() {
      return running.size;
    },
  };
}
