import { ensureWebBuild } from './ensure-web-build';
import { loadConfig } from '../src/server/platform/config';
import { startCreatingPglite } from '../src/server/platform/db/pglite-create';

// `npm start`: on a first start with the embedded database, begin creating it (initdb, seconds of
// WebAssembly in a thread of its own) while the web app is checked and the server's code loads; then build
// the web app when its sources changed, and run the server.
try {
  const { database } = loadConfig();
  if (database.kind === 'pglite') startCreatingPglite(database.dir);
} catch {
  // A bad setting or a data folder that cannot be made: the server says so, in its own words, as it starts.
}
ensureWebBuild();
const { runMain } = await import('../src/server/main');
await runMain();
