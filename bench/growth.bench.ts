import { figure, type BenchFigure } from './figures';

/**
 * How the read endpoints' cost grows with the league: the same endpoints as the scale bench's main table
 * (bench/scale.bench.ts runs them) on leagues of several sizes, one scratch database per size, each endpoint's
 * p95 under the same concurrent clients, and the shared buffers (8 kB pages) one answer's statements touch
 * (EXPLAIN (ANALYZE, BUFFERS) of each): the database's work, which the machine's load does not change, where the
 * p95 of a shared machine does. An endpoint whose statements read a few index pages grows flat or
 * logarithmically with the league; one that counts or reads every row grows linearly, ten times the pages for
 * ten times the players.
 */

export type GrowthCase = {
  endpoint: string;
  requests: number;
  p95: number;
  /** Shared buffers (hit or read) one answer's statements touch, summed over them. */
  pages: number;
  /** CPU of the server process per request, in ms (undefined where /proc is not there). */
  serverCpuMs: number | undefined;
  /** CPU of the database's backends per request, in ms (parallel workers left out; undefined where out of reach). */
  databaseCpuMs: number | undefined;
  /** 1-minute load average when the endpoint's run started. */
  loadAverage: number;
  /** Requests answered with a server error (5xx), warm-up included; their time to the answer is in the p95. */
  failed: number;
  firstFailure: string | undefined;
};

export type GrowthSize = {
  players: number;
  documents: number;
  /** Seconds to write the league (INSERT … SELECT in the database) and to VACUUM ANALYZE it. */
  seedSeconds: number;
  /** CPU seconds of the database's backends while seeding: the seeding's cost, whatever the machine's load (undefined where not readable). */
  seedDatabaseCpuSeconds: number | undefined;
  analyzeSeconds: number;
  warmupSeconds: number;
  timedSeconds: number;
  cases: GrowthCase[];
};

export type GrowthResult = { clients: number; sizes: GrowthSize[] };

/** Per ten times the players: the factor a cost grows by, from its values at two sizes (geometric). */
export function growthPer10x(small: number, large: number, smallPlayers: number, largePlayers: number): number {
  if (!(small > 0) || !(large > 0) || largePlayers <= smallPlayers) return Number.NaN;
  return (large / small) ** (1 / Math.log10(largePlayers / smallPlayers));
}

/**
 * A factor per ten times the players in words: up to 1.5 is what an index lookup's extra level or a slightly
 * longer list costs (flat or logarithmic); 5 and more is the cost following the row count (linear).
 */
export function growthKind(per10x: number): 'flat or logarithmic' | 'sub-linear' | 'linear' | 'n/a' {
  if (!Number.isFinite(per10x)) return 'n/a';
  if (per10x <= 1.5) return 'flat or logarithmic';
  if (per10x < 5) return 'sub-linear';
  return 'linear';
}

const bySize = (result: GrowthResult) => [...result.sizes].sort((a, b) => a.players - b.players);

/** The smallest and the largest size, when there are two or more. */
function ends(result: GrowthResult): { small: GrowthSize; large: GrowthSize } | undefined {
  const sizes = bySize(result);
  const small = sizes[0];
  const large = sizes[sizes.length - 1];
  return small && large && large.players > small.players ? { small, large } : undefined;
}

const thousands = (players: number) => (players >= 1000 ? `${players / 1000}k` : String(players));

export function formatGrowthTable(result: GrowthResult): string {
  const sizes = bySize(result);
  const span = ends(result);
  const endpoints = sizes[0]?.cases.map((c) => c.endpoint) ?? [];
  const caseOf = (size: GrowthSize, endpoint: string) => size.cases.find((c) => c.endpoint === endpoint);
  const lines = [
    `Growth: the same endpoints on leagues of ${sizes.map((s) => s.players.toLocaleString('en-US')).join(', ')} players (PostgreSQL, one scratch database each),`,
    `${result.clients} concurrent clients; p95 in ms, pages = shared buffers one answer's statements touch (EXPLAIN ANALYZE BUFFERS; the database's`,
    `work, independent of the machine's load). per 10x = the growth factor for ten times the players, from the smallest to the largest league.`,
    ...sizes.map(
      (s) =>
        `  ${s.players.toLocaleString('en-US')} players, ${s.documents.toLocaleString('en-US')} documents: seeded in ${s.seedSeconds.toFixed(1)} s ` +
        `(database CPU ${s.seedDatabaseCpuSeconds === undefined ? 'n/a' : `${s.seedDatabaseCpuSeconds.toFixed(1)} s`}), ` +
        `VACUUM ANALYZE ${s.analyzeSeconds.toFixed(1)} s; ${s.warmupSeconds} s warm-up, ${s.timedSeconds} s timed per endpoint`,
    ),
    '',
  ];
  const width = Math.max(8, ...endpoints.map((e) => e.length));
  const header = [
    'endpoint'.padEnd(width),
    ...sizes.map((s) => `p95 ${thousands(s.players)}`.padStart(9)),
    ...(span ? [`${thousands(span.large.players)}/${thousands(span.small.players)}`.padStart(8), 'per 10x'.padStart(7)] : []),
    ...sizes.map((s) => `pages ${thousands(s.players)}`.padStart(11)),
    ...(span ? ['per 10x'.padStart(7), 'pages grow'] : []),
  ];
  lines.push(header.join('  ').trimEnd());
  const linear: string[] = [];
  for (const endpoint of endpoints) {
    const p95s = sizes.map((s) => caseOf(s, endpoint)?.p95 ?? Number.NaN);
    const pages = sizes.map((s) => caseOf(s, endpoint)?.pages ?? Number.NaN);
    // A p95 with failed requests behind it is marked: its requests did not all get an answer.
    const cells = [
      endpoint.padEnd(width),
      ...sizes.map((s, i) => `${(p95s[i] ?? Number.NaN).toFixed(1)}${(caseOf(s, endpoint)?.failed ?? 0) > 0 ? '!' : ''}`.padStart(9)),
    ];
    if (span) {
      const small = caseOf(span.small, endpoint);
      const large = caseOf(span.large, endpoint);
      const p95Growth = growthPer10x(small?.p95 ?? Number.NaN, large?.p95 ?? Number.NaN, span.small.players, span.large.players);
      const pageGrowth = growthPer10x(small?.pages ?? Number.NaN, large?.pages ?? Number.NaN, span.small.players, span.large.players);
      cells.push(((large?.p95 ?? Number.NaN) / (small?.p95 ?? Number.NaN)).toFixed(2).padStart(8), p95Growth.toFixed(2).padStart(7));
      cells.push(...pages.map((v) => String(v).padStart(11)), pageGrowth.toFixed(2).padStart(7), growthKind(pageGrowth));
      if (growthKind(pageGrowth) === 'linear' || growthKind(p95Growth) === 'linear') linear.push(endpoint);
    } else {
      cells.push(...pages.map((v) => String(v).padStart(11)));
    }
    lines.push(cells.join('  ').trimEnd());
  }
  lines.push('');
  for (const size of sizes) {
    for (const c of size.cases.filter((c) => c.failed > 0)) {
      lines.push(
        `! ${size.players.toLocaleString('en-US')} players, ${c.endpoint}: ${c.failed} requests failed (warm-up included; ${c.requests} timed), ` +
          `the first: ${c.firstFailure ?? '?'}`,
      );
    }
  }
  if (!span) {
    lines.push('Growth: one league size only (--quick); the full run compares 5,000, 50,000 and 200,000 players.', '');
  } else {
    const factor = span.large.players / span.small.players;
    lines.push(
      `Remark: from ${span.small.players.toLocaleString('en-US')} to ${span.large.players.toLocaleString('en-US')} players (${factor} x), a linear cost grows ${factor} x ` +
        `(10 per 10x), a logarithmic one about ${(Math.log(span.large.players) / Math.log(span.small.players)).toFixed(2)} x; ` +
        (linear.length === 0
          ? 'no endpoint grows linearly.'
          : `growing linearly (pages or p95 ≥ 5 per 10x): ${linear.join('; ')}.`),
      'The p95 of a small league is mostly the fixed cost of a request (HTTP, session, JSON), so its growth understates the database\'s; the pages do not.',
      '',
    );
  }
  return lines.join('\n');
}

/** The growth table as figures: each endpoint's p95 and pages per size, and its p95 growth from the smallest to the largest league. */
export function growthFigures(result: GrowthResult): BenchFigure[] {
  const figures: BenchFigure[] = [];
  for (const size of bySize(result)) {
    figures.push(
      figure({
        section: 'growth',
        name: `seeding ${size.players.toLocaleString('en-US')} players`,
        value: size.seedSeconds,
        unit: 's',
        detail: { players: size.players, documents: size.documents, databaseCpuSeconds: size.seedDatabaseCpuSeconds ?? null, analyzeSeconds: size.analyzeSeconds },
      }),
    );
    for (const c of size.cases) {
      const detail = {
        players: size.players,
        clients: result.clients,
        pages: c.pages,
        serverCpuMs: c.serverCpuMs ?? null,
        databaseCpuMs: c.databaseCpuMs ?? null,
        failedRequests: c.failed,
      };
      figures.push(figure({ section: 'growth', name: `${c.endpoint} p95`, value: c.p95, unit: 'ms', detail, loadAverage: c.loadAverage }));
      figures.push(figure({ section: 'growth', name: `${c.endpoint} pages per answer`, value: c.pages, unit: 'count', detail: { players: size.players } }));
    }
  }
  const span = ends(result);
  if (span) {
    for (const large of span.large.cases) {
      const small = span.small.cases.find((c) => c.endpoint === large.endpoint);
      if (!small) continue;
      figures.push(
        figure({
          section: 'growth',
          name: `${large.endpoint} p95 ${thousands(span.large.players)}/${thousands(span.small.players)}`,
          value: large.p95 / small.p95,
          unit: 'ratio',
          detail: {
            fromPlayers: span.small.players,
            toPlayers: span.large.players,
            p95Per10x: growthPer10x(small.p95, large.p95, span.small.players, span.large.players),
            pagesPer10x: growthPer10x(small.pages, large.pages, span.small.players, span.large.players),
            pagesGrowth: growthKind(growthPer10x(small.pages, large.pages, span.small.players, span.large.players)),
          },
          loadAverage: large.loadAverage,
        }),
      );
    }
  }
  return figures;
}
