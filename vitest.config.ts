import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (pure logic, fakes allowed, fast) and `integration` (real PostgreSQL and PGlite,
 * and later clamd, IMAP, SMTP, S3). End-to-end tests run under Playwright (playwright.config.ts).
 */
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src/web', import.meta.url)) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/lint/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['src/**/*.int.test.ts', 'tests/integration/**/*.int.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          // Two files at a time fit a 2-core machine (each test's databases, servers and clients).
          pool: 'forks',
          maxWorkers: 2,
          // A worker runs its files one after another in one process and imports the server's modules once,
          // not once a file: that import was a third of the run's CPU. Each file still opens its own
          // databases, servers and data folders, so no test sees another's state.
          isolate: false,
          // Runs after the unit project when both are selected (they differ in pool settings).
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
