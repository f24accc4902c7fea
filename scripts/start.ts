import { ensureWebBuild } from './ensure-web-build';
import { runMain } from '../src/server/main';

// `npm start`: build the web app when its sources changed, then run the server.
ensureWebBuild();
await runMain();
