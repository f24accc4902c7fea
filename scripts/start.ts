import { ensureWebBuild } from './ensure-web-build';
import { loadConfig } from '../src/server/platform/config';
import { startCreatingPglite } from '../src/server/platform/db/pglite-create';

// `npm start`: on a first start with the embedded database, begin creating it (initdb, seconds of
// WebAssembly in a thread of its own) while the web app is checked and the server's code loads; then build
// the web app when its sources changed, and run the server. A configuration error is the server's to report.
const database = (() => {
  try {
    return loadConfig().database;
  } catch {
    return undefined;
  }
})();
if (database?.kind === 'pglite') startCreatingPglite(database.dir);
ensureWebBuild();
const { runMain } = await import('../src/server/main');
await runMain();
