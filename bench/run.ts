import { availableParallelism, loadavg } from 'node:os';
import { FULL_MAILBOX_SIZE, QUICK_MAILBOX_SIZE, runMailboxBench } from './mailbox.bench';
import { FULL_SIZES, QUICK_SIZES, runPipelineBench, TARGET_LABEL, TARGET_RATIO, targetVerdicts } from './pipeline.bench';
import { DEFAULT_POSTGRES_URL } from './support';

/**
 * `npm run bench` (`-- --quick` for a smoke run with few submissions and mails): the crypto baseline of this
 * machine, then the pipeline end to end with scanning off and on, with its throughput as a ratio to the
 * crypto one-pass rate measured in the same run, then the mailbox intake end to end (IMAP, Dovecot), as a
 * ratio to the same crypto rate and to the raw IMAP download of the same mails.
 *
 * Exits non-zero only when something fails (a refused submission, a stuck job, a mail not acknowledged,
 * clamd or Dovecot not starting); being below the throughput target is reported, not failed, because it
 * depends on the machine and its load.
 */
const USAGE = 'usage: tsx bench/run.ts [--quick] [--profile <dir>]';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const profileAt = args.indexOf('--profile');
  const profileDir = profileAt === -1 ? undefined : args[profileAt + 1];
  if (profileAt !== -1 && (!profileDir || profileDir.startsWith('--'))) throw new Error(`--profile needs a folder\n${USAGE}`);
  const unknown = args.filter((arg, i) => arg !== '--quick' && i !== profileAt && i !== profileAt + 1);
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown.join(' ')}\n${USAGE}`);
  const quick = args.includes('--quick');
  const write = (text: string) => process.stdout.write(text);
  // Every number below is a rate on a possibly shared machine: say how busy it was.
  const machine = () => `${availableParallelism()} CPUs, load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`;
  write(`Machine: ${machine()}, node ${process.version}\n`);

  // The one environment variable of the benchmark; the server's own settings come from config.ts.
  const postgresUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL;

  write('== Crypto baseline (bench/run-crypto.ts) ==\n');
  // run-crypto.ts is a script: importing it runs and prints it, so the two benchmarks cannot drift apart.
  await import('./run-crypto');

  write(`== Pipeline${quick ? ' (--quick: too few submissions for stable numbers)' : ''} ==\n`);
  const result = await runPipelineBench({
    sizes: quick ? QUICK_SIZES : FULL_SIZES,
    cryptoBytesPerMeasurement: quick ? 50 * 1000 * 1000 : undefined,
    profileDir,
    postgresUrl,
    write,
  });

  const scanningOn = result.cases.filter((c) => c.label === TARGET_LABEL && c.scanning === 'on');
  const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
  write(`Target: ${TARGET_LABEL} files, scanning off, at ≥ ${percent(TARGET_RATIO)} of the crypto one-pass rate.\n`);
  for (const verdict of targetVerdicts(result)) {
    write(`  ${verdict.case.database.padEnd(8)} ${TARGET_LABEL}, scanning off: ${percent(verdict.case.ratio)} → ${verdict.pass ? 'PASS' : 'BELOW TARGET'}\n`);
  }
  for (const c of scanningOn) {
    write(`  ${c.database.padEnd(8)} ${TARGET_LABEL}, scanning on:  ${percent(c.ratio)} (reported; the target is for scanning off)\n`);
  }

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
  write(`Machine at the end: ${machine()}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
