import { writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { FULL_DOCUMENT_TOTAL_PLAYERS, QUICK_DOCUMENT_TOTAL_PLAYERS, runDocumentTotalBench } from './document-total.bench';
import { runEmbeddedLoadBench } from './embedded-load.bench';
import { runStartBench } from './start.bench';
import { machineNow, verdictWord, type BenchFigure } from './figures';
import { FULL_MAILBOX_SIZE, QUICK_MAILBOX_SIZE, runMailboxBench } from './mailbox.bench';
import { CLAMD_TARGET_RATIO, CPU_TARGET_RATIO, FULL_SIZES, QUICK_SIZES, runPipelineBench, TARGET_LABEL } from './pipeline.bench';
import { FULL_SCALE_PLAYERS, QUICK_SCALE_PLAYERS, runScaleBench, SCALE_TARGET } from './scale.bench';
import { FULL_BREAKDOWN_PLAYERS, QUICK_BREAKDOWN_PLAYERS, runSeasonBreakdownBench } from './season-breakdown.bench';
import { FULL_SEARCH_PLAYERS, QUICK_SEARCH_PLAYERS, runSearchBench, SEARCH_INDEX } from './search.bench';
import { DEFAULT_POSTGRES_URL } from './support';
import { QUICK_CASES as QUICK_BACKUP_CASES, runBackupBench } from './backup.bench';

/**
 * `npm run bench` (`-- --quick` for a smoke run at small sizes): every figure a user waits on, each held to its
 * target and measured beside its floor in the same run.
 * - start: `npm start` on a new data folder with demo data (cold), then on the same (warm), and the resident
 *   set once the start's work has settled (bench/start.bench.ts);
 * - pipeline: the crypto baseline of this machine, then the signed form POST until the document is stored,
 *   with CPU per document against the floor of HMAC + SHA-256 + AES-256-GCM, and with clamd against clamd's
 *   own INSTREAM rate (bench/pipeline.bench.ts);
 * - scale: every screen's first call at 50,000 players on PostgreSQL, 20 clients, beside the same statements
 *   raw and behind a bare HTTP server, and the growth table at 5,000, 50,000 and 200,000 players;
 * - documents: the Documents list's total beside its page (bench/document-total.bench.ts);
 * - season: the season report's breakdown read from the table the triggers keep, beside the grouping it
 *   replaced, and what a write pays for it (bench/season-breakdown.bench.ts);
 * - search: the accent-blind Players search and the index its plan reads;
 * - mailbox: the IMAP intake's rate;
 * - embedded: the embedded default (and PostgreSQL beside it) with 50 dashboards and 10 uploads/s, and the
 *   resident set at the end (bench/embedded-load.bench.ts).
 * `--only <section>` runs one; `--json <file>` writes every figure with its target and the machine's load;
 * `--profile <dir>` writes CPU profiles.
 *
 * Exits non-zero only when something fails (a refused submission, a stuck job, a wrong answer, a service not
 * starting); a figure over its target is reported, not failed, because it depends on the machine and its load.
 */
const SECTIONS = ['start', 'pipeline', 'scale', 'documents', 'season', 'search', 'mailbox', 'embedded', 'backup'] as const;
const USAGE = `usage: tsx bench/run.ts [--quick] [--json <file>] [--profile <dir>] [--only ${SECTIONS.join('|')}]`;
type Section = (typeof SECTIONS)[number];
const isSection = (value: string | undefined): value is Section => SECTIONS.some((section) => section === value);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const profileAt = args.indexOf('--profile');
  const profileDir = profileAt === -1 ? undefined : args[profileAt + 1];
  if (profileAt !== -1 && (!profileDir || profileDir.startsWith('--'))) throw new Error(`--profile needs a folder\n${USAGE}`);
  const onlyAt = args.indexOf('--only');
  const only = onlyAt === -1 ? undefined : args[onlyAt + 1];
  if (onlyAt !== -1 && !isSection(only)) throw new Error(`--only needs one of ${SECTIONS.join(', ')}\n${USAGE}`);
  const jsonAt = args.indexOf('--json');
  const jsonFile = jsonAt === -1 ? undefined : args[jsonAt + 1];
  if (jsonAt !== -1 && (!jsonFile || jsonFile.startsWith('--'))) throw new Error(`--json needs a file\n${USAGE}`);
  const withValue = [profileAt, onlyAt, jsonAt].filter((at) => at !== -1).flatMap((at) => [at, at + 1]);
  const unknown = args.filter((arg, i) => arg !== '--quick' && !withValue.includes(i));
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown.join(' ')}\n${USAGE}`);
  const quick = args.includes('--quick');
  const runs = (section: Section) => only === undefined || only === section;
  const write = (text: string) => process.stdout.write(text);
  // Every number below is a rate on a possibly shared machine: say how busy it was.
  const machine = () => `${availableParallelism()} CPUs, load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`;
  write(`Machine: ${machine()}, node ${process.version}\n`);
  const startedAt = new Date().toISOString();
  const start = machineNow();
  const figures: BenchFigure[] = [];

  // The one environment variable of the benchmark; the server's own settings come from config.ts.
  const postgresUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL;

  // Every section's figures are written as soon as it ends, so a section that fails loses only its own.
  const failures: string[] = [];
  const save = async () => {
    if (!jsonFile) return;
    const now = machineNow();
    const run = { startedAt, node: process.version, quick, sections: SECTIONS.filter(runs), machine: { cpus: now.cpus, loadAverageAtStart: start.loadAverage, loadAverageAtEnd: now.loadAverage }, failures, figures };
    await writeFile(jsonFile, `${JSON.stringify(run, null, 2)}\n`);
  };
  const section = async (name: Section, work: () => Promise<BenchFigure[] | void>) => {
    if (!runs(name)) return;
    try {
      figures.push(...((await work()) ?? []));
    } catch (error) {
      failures.push(name);
      process.exitCode = 1;
      process.stderr.write(`bench section ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    await save();
  };

  // First, while the machine is as its user finds it: a start on a new data folder, then on the same again.
  await section('start', () => startSection(write));
  if (runs('pipeline') || runs('mailbox')) {
    write('== Crypto baseline (bench/run-crypto.ts) ==\n');
    // run-crypto.ts is a script: importing it runs and prints it, so the two benchmarks cannot drift apart.
    await import('./run-crypto');
  }
  await section('pipeline', () => pipelineSection(quick, postgresUrl, profileDir, write));
  await section('scale', () => scaleSection(quick, postgresUrl, profileDir, write));
  await section('documents', () => documentsSection(quick, postgresUrl, write));
  await section('season', () => seasonSection(quick, postgresUrl, write));
  await section('search', () => searchSection(quick, postgresUrl, write));
  await section('mailbox', () => mailboxSection(quick, postgresUrl, write));
  await section('embedded', () => embeddedSection(quick, postgresUrl, write));
  await section('backup', () => backupSection(quick, write));
  write(`Machine at the end: ${machine()}\n`);
  if (jsonFile) write(`Every figure with its target: ${jsonFile}\n`);
  if (failures.length > 0) write(`Sections that failed: ${failures.join(', ')}\n`);
  const missed = figures.filter((f) => f.pass === false);
  write(`${figures.filter((f) => f.pass === true).length} figures meet their target, ${missed.length} do not${missed.length > 0 ? `: ${missed.map((f) => `${f.name} ${verdictWord(f)}`).join('; ')}` : ''}.\n`);
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

async function pipelineSection(quick: boolean, postgresUrl: string, profileDir: string | undefined, write: (text: string) => void): Promise<BenchFigure[]> {
  write(`== Pipeline${quick ? ' (--quick: too few submissions for stable numbers)' : ''} ==\n`);
  const result = await runPipelineBench({
    sizes: quick ? QUICK_SIZES : FULL_SIZES,
    cryptoBytesPerMeasurement: quick ? 50 * 1000 * 1000 : undefined,
    profileDir,
    postgresUrl,
    write,
  });
  write(`Targets: ${TARGET_LABEL} files, scanning off: CPU per document ≤ ${CPU_TARGET_RATIO} × the floor; scanning on: ≥ ${percent(CLAMD_TARGET_RATIO)} of clamd's own INSTREAM rate.\n`);
  printFigures(result.figures, write);
  return result.figures;
}

async function scaleSection(quick: boolean, postgresUrl: string, profileDir: string | undefined, write: (text: string) => void): Promise<BenchFigure[]> {
  write(`== Scale and growth${quick ? ' (--quick: 5,000 players only, too few requests for stable numbers)' : ''} ==\n`);
  const result = await runScaleBench({
    players: quick ? QUICK_SCALE_PLAYERS : FULL_SCALE_PLAYERS,
    requestsPerClient: quick ? 10 : 25,
    timedSeconds: quick ? 0.5 : 3,
    warmupSeconds: quick ? 1 : 5,
    postgresUrl,
    profileDir,
    write,
  });
  if (profileDir) write(`  CPU profiles of the server (one per thread; the main thread's is the largest): ${profileDir}/CPU.*.cpuprofile\n`);
  write(`Target: p95 ≤ ${SCALE_TARGET.p95Ms} ms and p95 ≤ ${SCALE_TARGET.ratio} × the bare HTTP floor's p95 (reported, not failed: it depends on the machine and its load).\n`);
  printFigures(result.figures, write);
  return result.figures;
}

/** Each figure with a target, one per line, with its verdict. */
function printFigures(figures: readonly BenchFigure[], write: (text: string) => void): void {
  for (const f of figures) if (f.target) write(`  ${f.name}: ${f.value.toFixed(f.unit === 'count' ? 0 : 2)} ${f.unit} → ${verdictWord(f)}\n`);
}

async function searchSection(quick: boolean, postgresUrl: string, write: (text: string) => void): Promise<void> {
  write(`== Search${quick ? ' (--quick: 5,000 players, too few rounds for stable numbers)' : ''} ==\n`);
  const cases = await runSearchBench({
    players: quick ? QUICK_SEARCH_PLAYERS : FULL_SEARCH_PLAYERS,
    warmupRounds: quick ? 10 : 50,
    rounds: quick ? 30 : 300,
    postgresUrl,
    write,
  });
  write(`Target: the count of the search reads ${SEARCH_INDEX} (a Bitmap Index Scan on it); the ratio to the unsearched answer is reported.\n`);
  for (const c of cases) {
    write(`  ${c.database.padEnd(8)} search p95 ${c.search.p95.toFixed(2)} ms, ${c.ratio.toFixed(2)} × the unsearched answer → ${c.countUsesIndex ? 'USES THE INDEX' : 'DOES NOT USE THE INDEX'}\n`);
  }
  if (cases.some((c) => !c.countUsesIndex)) process.exitCode = 1;
}

async function mailboxSection(quick: boolean, postgresUrl: string, write: (text: string) => void): Promise<void> {
  write(`== Mailbox${quick ? ' (--quick: too few mails for stable numbers)' : ''} ==\n`);
  const mailbox = await runMailboxBench({
    size: quick ? QUICK_MAILBOX_SIZE : FULL_MAILBOX_SIZE,
    cryptoBytesPerMeasurement: quick ? 50 * 1000 * 1000 : undefined,
    postgresUrl,
    write,
  });
  write('No target for the mailbox: its rate is reported, as a ratio to the crypto one-pass rate and to the raw IMAP download.\n');
  for (const c of mailbox.cases) {
    write(
      `  ${c.database.padEnd(8)} ${c.mailsPerMinute.toFixed(0)} mails/min, ${c.attachmentsPerSecond.toFixed(1)} attachments/s: ` +
        `${percent(c.cryptoRatio)} of the crypto one-pass rate, ${percent(c.downloadRatio)} of the raw download rate\n`,
    );
  }
}

async function startSection(write: (text: string) => void): Promise<BenchFigure[]> {
  write('== Start (npm start with the built web app and demo data, PGlite then the embedded PostgreSQL: cold, then warm) ==\n');
  const figures = [...(await runStartBench({ write })), ...(await runStartBench({ write, database: 'postgres' }))];
  printFigures(figures, write);
  return figures;
}

async function documentsSection(quick: boolean, postgresUrl: string, write: (text: string) => void): Promise<BenchFigure[]> {
  write(`== The Documents list's total beside its page${quick ? ' (--quick: 5,000 players)' : ''} ==\n`);
  const { figures } = await runDocumentTotalBench({ players: quick ? QUICK_DOCUMENT_TOTAL_PLAYERS : FULL_DOCUMENT_TOTAL_PLAYERS, postgresUrl, write });
  return figures;
}

async function seasonSection(quick: boolean, postgresUrl: string, write: (text: string) => void): Promise<BenchFigure[]> {
  write(`== The season report's breakdown${quick ? ' (--quick: 5,000 players)' : ''} ==\n`);
  const figures = await runSeasonBreakdownBench(
    quick ? { players: QUICK_BREAKDOWN_PLAYERS, rounds: 20, writes: 50, postgresUrl, write } : { players: FULL_BREAKDOWN_PLAYERS, postgresUrl, write },
  );
  printFigures(figures, write);
  return figures;
}

async function embeddedSection(quick: boolean, postgresUrl: string, write: (text: string) => void): Promise<BenchFigure[]> {
  write(`== Embedded default under load${quick ? ' (--quick: 2,000 extra players, 10 dashboards, 10 s)' : ''} ==\n`);
  const result = await runEmbeddedLoadBench(
    quick ? { extraPlayers: 2_000, dashboardClients: 10, seconds: 10, warmupSeconds: 3, postgresUrl, write } : { postgresUrl, write },
  );
  printFigures(result.figures, write);
  return result.figures;
}

async function backupSection(quick: boolean, write: (text: string) => void): Promise<BenchFigure[]> {
  write(`== Backup and restore${quick ? ' (--quick: the demo data only)' : ''} ==\n`);
  const figures = await runBackupBench({ cases: quick ? QUICK_BACKUP_CASES : undefined, write });
  printFigures(figures, write);
  return figures;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
