import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * `npm test`: type check, lint and the web build side by side (none depends on another's output), then unit,
 * integration (PGlite and PostgreSQL) and end-to-end tests, stopping after the first red stage. Ends with the
 * count of tests per kind and one `N passed, N failed` line.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = path.join(ROOT, 'tmp/test-results');

type Counts = { passed: number; failed: number; skipped: number };
const tally = new Map<string, Counts>();

function run(label: string, command: string, args: string[], env: Record<string, string> = {}): void {
  process.stdout.write(`\n━━━ ${label} ━━━\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    process.stdout.write(`\n✗ ${label} failed after ${seconds} s\n`);
    printSummary();
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`✓ ${label} (${seconds} s)\n`);
}

type Step = { label: string; command: string; args: string[] };

/**
 * Runs independent steps at the same time. Each step's output is held back and printed whole under its
 * heading when it ends, so two logs never interleave; when one is red, the run stops once all have ended.
 */
async function runTogether(steps: Step[]): Promise<void> {
  process.stdout.write(`\n━━━ ${steps.map((step) => step.label).join(', ')}: side by side ━━━\n`);
  const outcomes = await Promise.all(
    steps.map(
      (step) =>
        new Promise<{ label: string; status: number | null }>((resolve) => {
          const started = Date.now();
          const output: Buffer[] = [];
          const child = spawn(step.command, step.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
          child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
          child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
          const finish = (status: number | null, error?: Error) => {
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            process.stdout.write(`\n━━━ ${step.label} ━━━\n`);
            process.stdout.write(Buffer.concat(output));
            if (error) process.stdout.write(`${error.message}\n`);
            process.stdout.write(status === 0 ? `✓ ${step.label} (${seconds} s)\n` : `\n✗ ${step.label} failed after ${seconds} s\n`);
            resolve({ label: step.label, status });
          };
          child.once('error', (error) => finish(null, error));
          child.once('close', (code) => finish(code));
        }),
    ),
  );
  const red = outcomes.find((outcome) => outcome.status !== 0);
  if (red) {
    printSummary();
    process.exit(red.status ?? 1);
  }
}

const ZVitestReport = z.object({
  testResults: z.array(
    z.object({ assertionResults: z.array(z.object({ fullName: z.string(), status: z.string() })) }),
  ),
});

function countVitest(file: string, kindOf: (fullName: string) => string): void {
  const report = ZVitestReport.parse(JSON.parse(readFileSync(file, 'utf8')));
  for (const test of report.testResults.flatMap((r) => r.assertionResults)) add(kindOf(test.fullName), test.status);
}

type PlaywrightSuite = { specs?: Array<{ tests: Array<{ status: string }> }>; suites?: PlaywrightSuite[] };
const ZPlaywrightSuite: z.ZodType<PlaywrightSuite> = z.lazy(() =>
  z.object({
    specs: z.array(z.object({ tests: z.array(z.object({ status: z.string() })) })).optional(),
    suites: z.array(ZPlaywrightSuite).optional(),
  }),
);

function countPlaywright(file: string): void {
  const report = z.object({ suites: z.array(ZPlaywrightSuite) }).parse(JSON.parse(readFileSync(file, 'utf8')));
  const walk = (suite: PlaywrightSuite): void => {
    for (const spec of suite.specs ?? []) for (const test of spec.tests) add('end-to-end (Chromium)', playwrightStatus(test.status));
    for (const child of suite.suites ?? []) walk(child);
  };
  report.suites.forEach(walk);
}

const playwrightStatus = (status: string) => (status === 'expected' || status === 'flaky' ? 'passed' : status === 'skipped' ? 'skipped' : 'failed');

function add(kind: string, status: string): void {
  const counts = tally.get(kind) ?? { passed: 0, failed: 0, skipped: 0 };
  if (status === 'passed') counts.passed++;
  else if (status === 'skipped' || status === 'pending' || status === 'todo') counts.skipped++;
  else counts.failed++;
  tally.set(kind, counts);
}

function printSummary(): void {
  if (tally.size === 0) return;
  process.stdout.write('\nTests per kind:\n');
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const [kind, counts] of tally) {
    process.stdout.write(`  ${kind.padEnd(32)} ${String(counts.passed).padStart(4)} passed  ${counts.failed} failed  ${counts.skipped} skipped\n`);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  }
  process.stdout.write(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
}

const integrationKind = (fullName: string) =>
  fullName.includes('[postgres]') ? 'integration (PostgreSQL)' : fullName.includes('[pglite]') ? 'integration (PGlite)' : 'integration (other)';

rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });
const json = (name: string) => ['--reporter=default', '--reporter=json', `--outputFile.json=${path.join(RESULTS, name)}`];

const IN_CI = ['true', '1'].includes(process.env.CI ?? '');
// Services the tests talk to. Outside CI a missing PostgreSQL only skips its tests (loudly); in CI it fails.
run('System packages', 'bash', ['scripts/services/ensure-system-packages.sh']);
const postgres = spawnSync('bash', ['scripts/services/ensure-postgres.sh'], { cwd: ROOT, stdio: 'inherit' });
if (postgres.status !== 0 && IN_CI) process.exit(postgres.status ?? 1);
// Three single-threaded steps share the cores. The unit tests run alone after them: some are timed, and
// sharing the cores with the others made them miss their 5 s.
await runTogether([
  { label: 'Type check', command: 'npm', args: ['run', '--silent', 'typecheck'] },
  { label: 'Lint', command: 'npx', args: ['eslint', '.', '--max-warnings=0'] },
  // The web app the end-to-end tests load.
  { label: 'Web build', command: 'npx', args: ['vite', 'build', '--logLevel', 'warn'] },
]);
run('Unit tests', 'npx', ['vitest', 'run', '--project', 'unit', ...json('unit.json')]);
countVitest(path.join(RESULTS, 'unit.json'), () => 'unit');
run('Integration tests', 'npx', ['vitest', 'run', '--project', 'integration', ...json('integration.json')]);
countVitest(path.join(RESULTS, 'integration.json'), integrationKind);
run('End-to-end tests', 'npx', ['playwright', 'test']);
countPlaywright(path.join(RESULTS, 'e2e.json'));
printSummary();
