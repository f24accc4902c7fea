import { writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import type { TDocType, TExtracted, TReadingCheckKind } from '../src/contract';
import { isDifferentPerson, isReadable, readingChecks } from '../src/server/reading/checks';
import { extractFacts } from '../src/server/reading/facts';
import { createDocumentReader } from '../src/server/reading/reader';
import { CORPUS_KINDS, CORPUS_TYPES, planReadingCorpus, renderCorpusDocument, type CorpusKind, type CorpusPlan } from '../tests/support/reading-corpus';

/**
 * `npm run bench:reading`: how well documents are read. Synthetic documents of the four types (tests/support/
 * reading-corpus.ts), clean scans and photos, each read by the document reader (one reader process, so one
 * core), its facts extracted and checked against the registration they were made from. Per type and kind:
 * type accuracy, date-of-birth exact matches (where the document carries one), name matches (where it names the
 * child), false checks (every document is correct, so any check is false) and seconds per page.
 * `--limit N` reads the first N documents (a round of the 4 types × 2 kinds every 8); `--seed S`; `--json <file>`
 * writes every document's result.
 *
 * Exits non-zero only when something fails to run; a target missed is reported, since it depends on the machine.
 */
const USAGE = 'usage: tsx bench/reading.ts [--limit N] [--seed S] [--json <file>] [--misses]';
const FULL_COUNT = 320;

const TARGETS = {
  typeAccuracy: 0.95,
  dobClean: 0.97,
  dobPhoto: 0.85,
  falseChecks: 0.02,
  secondsPerPage: 3,
};

type DocumentResult = {
  id: string;
  docType: TDocType;
  kind: CorpusKind;
  extracted: TExtracted;
  readable: boolean;
  typeRight: boolean;
  /** null where the document carries no date of birth. */
  dobRight: boolean | null;
  /** null where the document does not name the child (residency proofs). */
  nameRight: boolean | null;
  checks: TReadingCheckKind[];
  /** Wall-clock seconds per page read (one reader process). */
  seconds: number;
  /** CPU seconds per page, every thread of the process together: the time on one core, whatever else the machine does. */
  cpuSeconds: number;
  truth: CorpusPlan['truth'];
};

function parseArgs(args: string[]): { limit: number; seed: number; json: string | null; misses: boolean } {
  const valueOf = (flag: string): string | undefined => {
    const at = args.indexOf(flag);
    if (at === -1) return undefined;
    const value = args[at + 1];
    if (!value || value.startsWith('--')) throw new Error(`${flag} needs a value\n${USAGE}`);
    return value;
  };
  const known = new Set(['--limit', '--seed', '--json', '--misses']);
  for (const [i, arg] of args.entries()) {
    if (arg.startsWith('--') && !known.has(arg)) throw new Error(`unknown argument ${arg}\n${USAGE}`);
    if (!arg.startsWith('--') && !['--limit', '--seed', '--json'].includes(args[i - 1] ?? '')) throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  const limit = Number(valueOf('--limit') ?? FULL_COUNT);
  const seed = Number(valueOf('--seed') ?? 1);
  if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(seed)) throw new Error(USAGE);
  return { limit, seed, json: valueOf('--json') ?? null, misses: args.includes('--misses') };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const write = (text: string) => process.stdout.write(text);
  const machine = () => `${availableParallelism()} CPUs, load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`;
  write(`Machine: ${machine()}, node ${process.version}\n`);
  const today = new Date().toISOString().slice(0, 10);
  const plans = planReadingCorpus({ count: options.limit, seed: options.seed, today });
  write(`== Reading: ${plans.length} documents (seed ${options.seed}), one reader process ==\n`);

  const reader = createDocumentReader();
  const results: DocumentResult[] = [];
  try {
    // The thread's start and the model's load are paid once per idle period, not per page: not timed.
    const [warmUp] = planReadingCorpus({ count: 1, seed: options.seed + 1, today });
    if (warmUp) await reader.read(await renderCorpusDocument(warmUp));
    for (const plan of plans) {
      const document = await renderCorpusDocument(plan);
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const read = await reader.read({ bytes: document.bytes, mime: document.mime });
      const cpu = process.cpuUsage(cpuBefore);
      const pages = Math.max(1, read.pages);
      const seconds = (performance.now() - started) / 1000 / pages;
      const cpuSeconds = (cpu.user + cpu.system) / 1e6 / pages;
      const extracted = extractFacts(read);
      const readable = isReadable(read);
      const { truth } = plan;
      const registration = { firstName: truth.firstName, lastName: truth.lastName, birthDate: truth.birthDate };
      const checks = readingChecks({ extracted, readable, declaredType: plan.docType, registration, today }).map((check) => check.kind);
      const result: DocumentResult = {
        id: plan.id,
        docType: plan.docType,
        kind: plan.kind,
        extracted,
        readable,
        typeRight: extracted.docType === plan.docType,
        dobRight: truth.dateOfBirth === null ? null : extracted.dateOfBirth === truth.dateOfBirth,
        nameRight: plan.docType === 'residency' ? null : extracted.fullName !== null && !isDifferentPerson(extracted.fullName, registration, extracted.confidence),
        checks,
        seconds,
        cpuSeconds,
        truth,
      };
      results.push(result);
      if (options.misses && (!result.typeRight || result.dobRight === false || result.nameRight === false || checks.length > 0)) {
        write(`  miss ${plan.id}: ${JSON.stringify({ extracted, checks, truth: { name: truth.fullName, dob: truth.dateOfBirth } })}\n`);
      }
    }
  } finally {
    await reader.close();
  }

  writeTable(results, write);
  if (options.json) await writeFile(options.json, JSON.stringify(results, null, 2));
  write(`Machine at the end: ${machine()}\n`);
}

const rate = (hits: number, total: number) => (total === 0 ? '     –' : `${((hits / total) * 100).toFixed(1).padStart(5)}%`);
const ratio = (items: readonly (boolean | null)[]) => {
  const counted = items.filter((item): item is boolean => item !== null);
  return { hits: counted.filter(Boolean).length, total: counted.length };
};

function summarize(results: readonly DocumentResult[]) {
  const type = ratio(results.map((r) => r.typeRight));
  const dob = ratio(results.map((r) => r.dobRight));
  const name = ratio(results.map((r) => r.nameRight));
  const falseChecks = results.filter((r) => r.checks.length > 0).length;
  const seconds = results.reduce((sum, r) => sum + r.seconds, 0) / Math.max(1, results.length);
  const cpuSeconds = results.reduce((sum, r) => sum + r.cpuSeconds, 0) / Math.max(1, results.length);
  const byKind = new Map<TReadingCheckKind, number>();
  for (const r of results) for (const kind of new Set(r.checks)) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  return { count: results.length, type, dob, name, falseChecks, seconds, cpuSeconds, byKind };
}

function writeTable(results: readonly DocumentResult[], write: (text: string) => void): void {
  write('type               kind    docs   type ok   dob ok  name ok  false checks  s/page  cpu s/page\n');
  const row = (label: string, kind: string, subset: readonly DocumentResult[]) => {
    if (subset.length === 0) return;
    const s = summarize(subset);
    const kinds = [...s.byKind.entries()].map(([kind, n]) => `${kind} ${n}`).join(', ');
    write(
      `${label.padEnd(18)} ${kind.padEnd(6)} ${String(s.count).padStart(5)}  ${rate(s.type.hits, s.type.total)}  ${rate(s.dob.hits, s.dob.total)}  ${rate(s.name.hits, s.name.total)}  ` +
        `${rate(s.falseChecks, s.count)} ${`(${s.falseChecks})`.padEnd(5)} ${s.seconds.toFixed(2).padStart(6)}  ${s.cpuSeconds.toFixed(2).padStart(10)}${kinds ? `   ${kinds}` : ''}\n`,
    );
  };
  for (const docType of CORPUS_TYPES) {
    for (const kind of CORPUS_KINDS) row(docType, kind, results.filter((r) => r.docType === docType && r.kind === kind));
  }
  for (const kind of CORPUS_KINDS) row('all', kind, results.filter((r) => r.kind === kind));
  row('all', 'both', results);

  const all = summarize(results);
  const clean = summarize(results.filter((r) => r.kind === 'clean'));
  const photo = summarize(results.filter((r) => r.kind === 'photo'));
  const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');
  const share = (r: { hits: number; total: number }) => (r.total === 0 ? 1 : r.hits / r.total);
  write('Targets:\n');
  write(`  type accuracy ≥ ${TARGETS.typeAccuracy * 100}%: ${rate(all.type.hits, all.type.total)} → ${verdict(share(all.type) >= TARGETS.typeAccuracy)}\n`);
  write(`  date of birth, clean scans ≥ ${TARGETS.dobClean * 100}%: ${rate(clean.dob.hits, clean.dob.total)} → ${verdict(share(clean.dob) >= TARGETS.dobClean)}\n`);
  write(`  date of birth, photos ≥ ${TARGETS.dobPhoto * 100}%: ${rate(photo.dob.hits, photo.dob.total)} → ${verdict(share(photo.dob) >= TARGETS.dobPhoto)}\n`);
  write(`  false checks ≤ ${TARGETS.falseChecks * 100}% (1 in 50): ${rate(all.falseChecks, all.count)} → ${verdict(all.falseChecks / Math.max(1, all.count) <= TARGETS.falseChecks)}\n`);
  write(
    `  seconds per page on one core ≤ ${TARGETS.secondsPerPage} (CPU seconds of the reading, all its threads): ${all.cpuSeconds.toFixed(2)} → ${verdict(all.cpuSeconds <= TARGETS.secondsPerPage)}` +
      ` (wall ${all.seconds.toFixed(2)} s with one reader process)\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
