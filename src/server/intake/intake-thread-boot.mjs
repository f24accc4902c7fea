// Entry of an intake thread. The server runs from TypeScript source (decision 001): a thread started by
// `tsx` inherits its loader, one started under a test runner does not, so register it here; twice is harmless.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./intake-thread.ts', import.meta.url).href);
