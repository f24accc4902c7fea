/**
 * A hand-over of items from a producer that runs in a callback (a database transaction) to a consumer that
 * iterates (an archive being written): `push` resolves once the consumer has taken the item, so the producer
 * goes no faster than the archive is written, and never holds more than one item. If the consumer stops
 * (the archive failed), a waiting or later `push` rejects, so the producer stops too.
 */
export type Channel<T> = AsyncIterable<T> & {
  push(item: T): Promise<void>;
  end(): void;
  fail(error: unknown): void;
};

export function createChannel<T>(): Channel<T> {
  type Slot = { item: T; taken: () => void; refused: (error: Error) => void };
  let slot: Slot | undefined;
  let ended = false;
  let consumerGone = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const gone = () => new Error('the archive stopped taking entries');
  return {
    push(item) {
      if (consumerGone) return Promise.reject(gone());
      if (ended || failure) return Promise.reject(new Error('the channel is closed'));
      return new Promise<void>((resolve, reject) => {
        slot = { item, taken: resolve, refused: reject };
        notify();
      });
    },
    end() {
      ended = true;
      notify();
    },
    fail(error) {
      failure = { error };
      notify();
    },
    async *[Symbol.asyncIterator]() {
      let current: Slot | undefined;
      try {
        for (;;) {
          if (slot) {
            current = slot;
            slot = undefined;
            yield current.item;
            current.taken();
            current = undefined;
            continue;
          }
          if (failure) throw failure.error;
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        consumerGone = true;
        current?.refused(gone());
        slot?.refused(gone());
        slot = undefined;
      }
    },
  };
}
