// Entry of the process that creates a new embedded database (see pglite-create.ts). Plain JavaScript started
// without the parent's loader flags: it needs nothing of the server's TypeScript, only PGlite, and so
// starts in a fraction of a second. Its folder and PostgreSQL settings come as its two arguments.
import { PGlite } from '@electric-sql/pglite';

// The server that started it has gone: the next start clears the half-made folder and creates it again.
process.on('disconnect', () => process.exit(1));
const [dir, settingsJson] = process.argv.slice(2);
const settings = JSON.parse(settingsJson);
const created = await PGlite.create(dir, { initDbStartParams: settings, startParams: [...PGlite.defaultStartParams, ...settings] });
await created.close();
process.exit(0);
