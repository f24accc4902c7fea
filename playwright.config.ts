import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium against the real server with its embedded defaults
 * (PGlite, local encrypted storage, demo data) in a scratch data directory, reading a real Dovecot mailbox.
 */
import { E2E_DATA_DIR, E2E_MAILBOX_FILE, E2E_PASSWORD, E2E_PORT as PORT, E2E_WEBHOOK_SECRET } from './tests/e2e/support';

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  outputDir: `tmp/e2e-artifacts-${PORT}`,
  reporter: [['list'], ['json', { outputFile: 'tmp/test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // A failed test keeps its trace: every step's DOM, network and console. Without the screencast, which cost
    // a fifth of the run's time on a 2-core machine; the failure's own screenshot is still taken.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } }, testIgnore: /\.phone\.spec\.ts$/ },
    {
      name: 'phone',
      use: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
      testMatch: /\.phone\.spec\.ts$/,
    },
  ],
  webServer: {
    // The server with a private Dovecot as its mailbox (tests/e2e/serve.ts).
    command: `rm -rf ${E2E_DATA_DIR} ${E2E_MAILBOX_FILE} && npx tsx tests/e2e/serve.ts`,
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    // SIGTERM, not the default SIGKILL: the server then stops its Dovecot too (tests/e2e/serve.ts).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      CLEARBASE_DATA_DIR: E2E_DATA_DIR,
      CLEARBASE_PASSWORD: E2E_PASSWORD,
      CLEARBASE_DEMO: 'true',
      CLEARBASE_LOGIN_RATE_LIMIT: '1000',
      FORM_WEBHOOK_SECRET: E2E_WEBHOOK_SECRET,
      // Settings → System → Backups can then make a backup (tests/e2e/backups.spec.ts).
      CLEARBASE_BACKUP_PASSPHRASE: 'the e2e backup passphrase',
      // Notifications: SMTP_URL is the receiver tests/e2e/serve.ts starts; this is the sender it shows.
      SMTP_FROM: 'Clearbase E2E <notifications@e2e.example>',
      LOG_LEVEL: 'warn',
    },
  },
});
