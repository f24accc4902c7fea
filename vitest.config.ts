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
          // PGlite takes ~1-2 s to start and a few hundred MB; two files at a time fit this 2-core machine.
          pool: 'forks',
          maxWorkers: 2,
          // Runs after the unit project when both are selected (they differ in pool settings).
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
