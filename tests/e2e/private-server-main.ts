import { runMain } from '../../src/server/main';

/**
 * The real server of a spec's own (tests/e2e/private-server.ts). None of those specs is about reading documents,
 * so their server leaves the reading lane off: reading the demo's documents would take a core for a minute of
 * every such spec, and its readings simply wait. The shared e2e server reads, for the specs that are about it.
 */
await runMain({ readDocuments: false });
