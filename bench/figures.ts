import { availableParallelism, loadavg } from 'node:os';

/**
 * One measured figure of `npm run bench`, as `--json <file>` writes it: what was measured, its value, and the
 * target it is held to (when it has one), with the machine's load when it was taken, since every figure is a
 * rate or a latency on a possibly shared machine.
 */
export type BenchFigure = {
  /** The bench section: 'scale', 'growth', 'embedded-load', 'memory', 'start', 'pipeline', 'search', 'mailbox', 'crypto'. */
  section: string;
  /** What was measured, in words, such as 'GET /api/stats p95' or 'resident set after start with demo data'. */
  name: string;
  value: number;
  unit: 'ms' | 's' | 'MB' | 'MB/s' | 'ratio' | 'percent' | 'count' | 'per second';
  /** The figure it is held to: value ≤ target (at most) or value ≥ target (at least). */
  target?: { atMost: number } | { atLeast: number };
  /** Whether the value meets its target; absent without a target. */
  pass?: boolean;
  /** 1-minute load average when the figure was taken. */
  loadAverage: number;
  /** Anything that reads the figure right: the case (database, size, clients), or what the target is a ratio to. */
  detail?: Record<string, string | number | boolean | null>;
};

/** A figure with its verdict worked out from its target, and the load average of now. */
export function figure(input: Omit<BenchFigure, 'pass' | 'loadAverage'> & { loadAverage?: number }): BenchFigure {
  const { target } = input;
  const pass = target === undefined ? undefined : 'atMost' in target ? input.value <= target.atMost : input.value >= target.atLeast;
  return { ...input, loadAverage: input.loadAverage ?? oneMinuteLoad(), ...(pass === undefined ? {} : { pass }) };
}

export const oneMinuteLoad = (): number => loadavg()[0] ?? Number.NaN;

/** The machine a run measured, at its start and end. */
export const machineNow = () => ({ cpus: availableParallelism(), loadAverage: loadavg() });

/** `PASS` or `OVER TARGET`/`UNDER TARGET` for a printed line; '' without a target. */
export function verdictWord(f: BenchFigure): string {
  if (f.target === undefined) return '';
  if (f.pass) return 'PASS';
  return 'atMost' in f.target ? 'OVER TARGET' : 'UNDER TARGET';
}
