import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { verdictWord, type BenchFigure } from './figures';

/**
 * `npx tsx bench/table.ts <file> [<file>…]`: the figures a `npm run bench -- --json <file>` run wrote, as the
 * Markdown tables of the README's Benchmark section: every figure held to a target, then the growth of each
 * screen's first call with the league's size (pages read per answer and p95, per size). With several files
 * (a whole run, then sections run again with `--only`), a later file's sections replace the earlier ones', and
 * each run is named above the table.
 */
const ZDetail = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
const ZFigure = z.object({
  section: z.string(),
  name: z.string(),
  value: z.number(),
  unit: z.enum(['ms', 's', 'MB', 'MB/s', 'ratio', 'percent', 'count', 'per second']),
  target: z.union([z.object({ atMost: z.number() }), z.object({ atLeast: z.number() })]).optional(),
  pass: z.boolean().optional(),
  loadAverage: z.number(),
  detail: ZDetail.optional(),
});
const ZRun = z.object({
  startedAt: z.string(),
  node: z.string(),
  quick: z.boolean(),
  machine: z.object({ cpus: z.number(), loadAverageAtStart: z.array(z.number()), loadAverageAtEnd: z.array(z.number()) }),
  failures: z.array(z.string()).optional(),
  figures: z.array(ZFigure),
});

const files = process.argv.slice(2);
if (files.length === 0) throw new Error('usage: tsx bench/table.ts <file written by npm run bench -- --json> [<file>…]');
const runs = files.map((file) => ZRun.parse(JSON.parse(readFileSync(file, 'utf8'))));
const figures = runs.reduce<BenchFigure[]>((kept, later) => {
  const replaced = new Set(later.figures.map((f) => f.section));
  return [...kept.filter((f) => !replaced.has(f.section)), ...later.figures];
}, []);

const number = (value: number) => (Math.abs(value) >= 100 ? Math.round(value).toLocaleString('en-US') : Number(value.toPrecision(3)).toString());
const withUnit = (value: number, unit: BenchFigure['unit']) => (unit === 'ratio' ? `${number(value)} ×` : unit === 'count' ? number(value) : `${number(value)} ${unit}`);
const target = (f: BenchFigure) => (f.target === undefined ? '' : 'atMost' in f.target ? `≤ ${withUnit(f.target.atMost, f.unit)}` : `≥ ${withUnit(f.target.atLeast, f.unit)}`);
const load = (values: readonly number[]) => values.map((v) => v.toFixed(2)).join(' ');

const describeRun = (run: z.infer<typeof ZRun>, index: number) =>
  `${index === 0 ? 'Run' : 'Then, run again'} of ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC${run.quick ? ' (--quick)' : ''}` +
  `${index === 0 ? '' : ` (${[...new Set(run.figures.map((f) => f.section))].join(', ')})`}, Node ${run.node}, ${run.machine.cpus} CPUs, ` +
  `load average ${load(run.machine.loadAverageAtStart)} at the start and ${load(run.machine.loadAverageAtEnd)} at the end.` +
  (run.failures && run.failures.length > 0 ? ` Sections that failed: ${run.failures.join(', ')}.` : '');
const lines = [
  runs.map(describeRun).join(' '),
  '',
  '| Section | Figure | Value | Target | Verdict | Load |',
  '|---|---|---|---|---|---|',
  ...figures.filter((f) => f.target !== undefined).map((f) => `| ${f.section} | ${f.name} | ${withUnit(f.value, f.unit)} | ${target(f)} | ${verdictWord(f)} | ${f.loadAverage.toFixed(1)} |`),
];

// Growth: one row per call, the sizes side by side.
const growth = figures.filter((f) => f.section === 'growth' && typeof f.detail?.players === 'number');
const sizes = [...new Set(growth.map((f) => Number(f.detail?.players)))].sort((a, b) => a - b);
const calls = [...new Set(growth.filter((f) => f.name.endsWith(' p95')).map((f) => f.name.slice(0, -' p95'.length)))];
if (sizes.length > 0 && calls.length > 0) {
  const cell = (call: string, players: number, suffix: string) => {
    const found = growth.find((f) => f.name === `${call}${suffix}` && f.detail?.players === players);
    return found ? number(found.value) : '–';
  };
  const per10x = (call: string) => {
    const span = figures.find((f) => f.section === 'growth' && f.name.startsWith(`${call} p95 `) && f.unit === 'ratio');
    return span?.detail?.pagesGrowth === undefined ? '–' : String(span.detail.pagesGrowth);
  };
  lines.push(
    '',
    `| Call | ${sizes.map((n) => `pages at ${n.toLocaleString('en-US')}`).join(' | ')} | ${sizes.map((n) => `p95 ms at ${n.toLocaleString('en-US')}`).join(' | ')} | pages grow |`,
    `|---|${sizes.map(() => '---|').join('')}${sizes.map(() => '---|').join('')}---|`,
    ...calls.map((call) => `| ${call} | ${sizes.map((n) => cell(call, n, ' pages per answer')).join(' | ')} | ${sizes.map((n) => cell(call, n, ' p95')).join(' | ')} | ${per10x(call)} |`),
  );
}
// Backup and restore: reported, not held to a target; one row per size.
const backups = figures.filter((f) => f.section === 'backup');
const backupCases = [...new Set(backups.map((f) => /\(([^)]+)\)$/.exec(f.name)?.[1]).filter((c): c is string => c !== undefined))];
if (backupCases.length > 0) {
  const value = (prefix: string, name: string) => {
    const found = backups.find((f) => f.name === `${prefix} (${name})`);
    return found ? withUnit(found.value, found.unit) : '–';
  };
  lines.push(
    '',
    '| Backup of | Rows | Files | Backup | Archive | Restore | Every document checked |',
    '|---|---|---|---|---|---|---|',
    ...backupCases.map((name) => {
      const detail = backups.find((f) => f.name.endsWith(`(${name})`))?.detail;
      const files = detail ? `${number(Number(detail.files))} (${number(Number(detail.fileMB))} MB)` : '–';
      return `| ${name} | ${detail ? number(Number(detail.rows)) : '–'} | ${files} | ${value('backup time', name)} | ${value('archive size', name)} | ${value('restore time', name)} | ${value('every document opened and checked after the restore', name)} |`;
    }),
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
