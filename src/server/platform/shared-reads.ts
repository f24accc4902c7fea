/**
 * Identical reads share their answers, never one begun before the caller asked. The first caller starts a
 * read; callers that arrive while it runs do not take its answer (it may have been read before a write they
 * have just made), but wait for one further read, started as soon as the running one settles, which they
 * all share. So every answer was read after the request that receives it arrived, and a burst of identical
 * calls costs at most two reads, not one per call. Under load, when fifty open dashboards ask for the same
 * figures at once, the database answers twice per burst instead of fifty times; on the embedded database,
 * whose one connection runs on the server's own thread, that is the difference between a queue and none.
 *
 * Only for reads whose answer depends on nothing but the key: the key must hold every input (season,
 * division scope, filters, page). Callers must treat the answer as read-only, since others hold it too.
 */
export type SharedReads<Key, Value> = {
  read(key: Key, run: () => Promise<Value>): Promise<Value>;
  /** Keys with a read running or waiting to run (for tests). */
  readonly inFlight: number;
};

type Slot<Value> = { running: Promise<Value>; next: Promise<Value> | undefined };

export function sharedReads<Key, Value>(): SharedReads<Key, Value> {
  const slots = new Map<Key, Slot<Value>>();

  /** Runs `run` as the key's running read; once it settles, the read waiting behind it (if any) runs next. */
  const start = (key: Key, slot: Slot<Value> | undefined, run: () => Promise<Value>): Promise<Value> => {
    const running = run().finally(() => {
      const current = slots.get(key);
      if (current?.running === running && current.next === undefined) slots.delete(key);
    });
    if (slot) slot.running = running;
    else slots.set(key, { running, next: undefined });
    return running;
  };

  return {
    read(key, run) {
      const slot = slots.get(key);
      if (!slot) return start(key, undefined, run);
      if (slot.next) return slot.next;
      const next = slot.running
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => {
          slot.next = undefined;
          return start(key, slot, run);
        });
      slot.next = next;
      return next;
    },
    get inFlight() {
      return slots.size;
    },
  };
}
