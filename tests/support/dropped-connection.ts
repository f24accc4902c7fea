import type { Db } from '../../src/server/platform/db/client';

/** What node-postgres throws when the server ends the session under a query. */
export const connectionLost = (): Error => new Error('Connection terminated unexpectedly');

/** Query builders and entry points of a drizzle database: what fails at once while the connection is down. */
const QUERY_ENTRY_POINTS = new Set<PropertyKey>(['select', 'insert', 'update', 'delete', 'execute', 'transaction']);

/**
 * The real database with a dropped connection put in the way of its next transaction, for the one moment
 * a real kill cannot hit on purpose. `commitFirst` says whether the transaction's work commits before the
 * failure is reported (the answer to COMMIT lost) or is rolled back (the session ended mid-transaction).
 * With `unreachableAfter`, every query after that fails the same way: the database cannot be asked
 * what became of it.
 */
export function withDroppedConnection(db: Db, fault: { commitFirst: boolean; unreachableAfter?: boolean }): Db {
  let dropped = false;
  const transaction = async (work: (tx: Db) => Promise<unknown>): Promise<never> => {
    try {
      if (fault.commitFirst) await db.transaction(work);
      else {
        await db.transaction(async (tx) => {
          await work(tx);
          throw connectionLost();
        });
      }
      throw connectionLost();
    } finally {
      dropped = true;
    }
  };
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'transaction' && !dropped) return transaction;
      if (dropped && fault.unreachableAfter && QUERY_ENTRY_POINTS.has(property)) return failAtOnce;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/**
 * The real database behind a switch: while it is down, every query fails at once as a dropped connection
 * does, the way the pool answers while PostgreSQL restarts.
 */
export function switchableDb(db: Db): { db: Db; down(): void; up(): void } {
  let down = false;
  const proxy = new Proxy(db, {
    get(target, property, receiver) {
      if (down && QUERY_ENTRY_POINTS.has(property)) return failAtOnce;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return {
    db: proxy,
    down: () => {
      down = true;
    },
    up: () => {
      down = false;
    },
  };
}

function failAtOnce(): never {
  throw connectionLost();
}

/** The real database, except that the next call of one entry point (`update`, say) fails as a dropped connection does. */
export function dropNextQuery(db: Db, entryPoint: 'select' | 'insert' | 'update' | 'delete' | 'execute' | 'transaction'): Db {
  let dropped = false;
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === entryPoint && !dropped) {
        dropped = true;
        return failAtOnce;
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
