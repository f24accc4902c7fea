// Entry of the thread that creates a new embedded database (see pglite-create.ts). Plain JavaScript started
// without the parent's loader flags: it needs nothing of the server's TypeScript, only PGlite, and so
// starts in a fraction of a second.
import { PGlite } from '@electric-sql/pglite';
import { workerData } from 'node:worker_threads';

const { dir, settings } = workerData;
const created = await PGlite.create(dir, { initDbStartParams: settings, startParams: [...PGlite.defaultStartParams, ...settings] });
await created.close();
