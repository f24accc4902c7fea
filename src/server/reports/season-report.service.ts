import {
  DIVISIONS,
  DOC_TYPE_LABELS,
  DOC_TYPES,
  inDivisionScope,
  SEASON_REPORT_MAX_PLAYERS,
  type TDivisionFilter,
  type TDivision,
  type TDocType,
  type TPlayerDocStatus,
  REPORT_EXPORT_CONTENT_TYPES,
  seasonReportFileName,
  type TPrincipal,
  type TReportExportFormat,
  type TSeasonReport,
  type TSeasonRef,
} from '../../contract';
import type { Db } from '../platform/db/client';
import { seasonReportQueries, type SeasonBreakdownRow, type SeasonHistoryRow } from './season-report.repository';
import { AppError } from '../platform/errors';
import { projectSeasons } from './projections';
import { buildReportExport, seasonReportCsv } from './season-report-export';
import { seasonReportPdf } from './season-report-pdf';
import { seasonReportXlsx } from './season-report-xlsx';
import { divisionsInScope, toReportRow } from './reports.service';

export type SeasonReportQuery = { season?: string | undefined; division: TDivisionFilter; compare: boolean };

const TYPE_KEYS: Record<TDocType, 'birthCertificate' | 'residency' | 'medical' | 'waiver'> = {
  birth_certificate: 'birthCertificate',
  residency: 'residency',
  medical: 'medical',
  waiver: 'waiver',
};

/** part / whole in percent, one decimal; 0 when the whole is 0. */
export const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);
/** The change from `before` to `after` in percent, one decimal; null when there was nothing before. */
export const growth = (after: number, before: number) => (before === 0 ? null : Math.round(((after - before) / before) * 1000) / 10);

const ref = (row: SeasonHistoryRow): TSeasonRef => ({ id: row.id, name: row.name, year: row.year });

/** 'YYYY-MM' of an ISO date 'YYYY-MM-DD'. */
const monthOf = (isoDate: string) => isoDate.slice(0, 7);
function nextMonth(month: string): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return mon === 12 ? `${year + 1}-01` : `${year}-${String(mon + 1).padStart(2, '0')}`;
}

/** Per month 'YYYY-MM', a count. */
export type MonthCounts = ReadonlyMap<string, number>;

/** Every month from the season's start to its end, widened to the months that have figures, zero or not. */
export function monthlySeries(startsOn: string, endsOn: string, registrations: MonthCounts, completions: MonthCounts) {
  const months = [monthOf(startsOn), monthOf(endsOn), ...registrations.keys(), ...completions.keys()].sort();
  const first = months[0] ?? monthOf(startsOn);
  const last = months[months.length - 1] ?? first;
  const series: TSeasonReport['monthly'] = [];
  for (let month = first; month <= last; month = nextMonth(month)) {
    series.push({ month, registrations: registrations.get(month) ?? 0, completions: completions.get(month) ?? 0 });
  }
  return series;
}

type TypeCounts = { complete: number; pending: number; processing: number; missing: number };

/**
 * Where a summary status is counted in the report's per-type figures: a lapsed approval is a document the family
 * must send again (missing), and a type the season does not require is met (complete).
 */
const STATUS_COUNTED_AS: Record<TPlayerDocStatus, keyof TypeCounts> = {
  complete: 'complete',
  not_required: 'complete',
  pending: 'pending',
  processing: 'processing',
  missing: 'missing',
  expired: 'missing',
};
type DivisionFigures = { players: number; complete: number };

/** The breakdown rows (season-report.repository) summed per division, per type and status, and per month. */
export function foldBreakdown(rows: readonly SeasonBreakdownRow[]) {
  const divisions = new Map<TDivision, DivisionFigures>();
  const types = Object.fromEntries(DOC_TYPES.map((docType) => [docType, { complete: 0, pending: 0, processing: 0, missing: 0 }])) as Record<TDocType, TypeCounts>;
  const registered = new Map<string, number>();
  const completed = new Map<string, number>();
  const add = (map: Map<string, number>, month: string | null, count: number) => {
    if (month !== null) map.set(month, (map.get(month) ?? 0) + count);
  };
  for (const row of rows) {
    const figures = divisions.get(row.division) ?? { players: 0, complete: 0 };
    figures.players += row.count;
    if (row.complete) figures.complete += row.count;
    divisions.set(row.division, figures);
    for (const docType of DOC_TYPES) types[docType][STATUS_COUNTED_AS[row[TYPE_KEYS[docType]]]] += row.count;
    add(registered, row.registeredMonth, row.count);
    // completed_at is set only while the player is complete.
    add(completed, row.completedMonth, row.count);
  }
  return { divisions, types, registered, completed };
}

/**
 * GET /api/reports/season: one season's report (src/contract/season-report.ts). Three aggregate statements at
 * once (season-report.repository); the season is resolved inside each, so an unknown one is seen afterwards.
 */
/**
 * The incomplete players an exported spreadsheet lists: every one, up to the rows an Excel sheet holds (the PDF
 * lists the report's SEASON_REPORT_MAX_PLAYERS and says how many more there are).
 */
export const SPREADSHEET_MAX_PLAYERS = 1_048_575;

/** An exported report: its bytes, and how the answer names and types them. */
export type ReportFile = { body: Buffer; contentType: string; fileName: string };

export function createSeasonReportService(deps: { db: Db; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** Counts, history and projections over the division asked for, within the principal's divisions. */
  async function getSeasonReport(query: SeasonReportQuery, principal: TPrincipal, playerLimit = SEASON_REPORT_MAX_PLAYERS): Promise<TSeasonReport> {
    const { scope } = divisionsInScope(query.division, principal);
    const q = seasonReportQueries(db, query.season, query.division, playerLimit, scope);
    const [history, breakdown, incomplete] = await Promise.all([q.history, q.breakdown, q.incomplete]);
    const season = history.find((row) => row.selected === true);
    if (!season) {
      throw new AppError('NOT_FOUND', query.season === undefined ? 'No season exists yet.' : `Season "${query.season}" does not exist.`);
    }

    const { divisions, types, registered, completed } = foldBreakdown(breakdown);
    const totalPlayers = [...divisions.values()].reduce((sum, row) => sum + row.players, 0);
    const completeProfiles = [...divisions.values()].reduce((sum, row) => sum + row.complete, 0);

    // Seasons up to the report's one; the same kind's are the projection's points and hold the previous season.
    const upTo = history.filter((row) => row.startsOn <= season.startsOn);
    const sameKind = upTo.filter((row) => row.kind === season.kind);
    const previous = sameKind.filter((row) => row.startsOn < season.startsOn).at(-1);

    const documentStats = DOC_TYPES.map((docType) => ({ docType, ...types[docType], completionRate: percent(types[docType].complete, totalPlayers) }));
    const weakest = totalPlayers === 0 ? undefined : [...documentStats].sort((a, b) => a.completionRate - b.completionRate)[0];

    return {
      season: { ...ref(season), kind: season.kind },
      division: query.division,
      summary: {
        totalPlayers,
        completeProfiles,
        incompleteProfiles: totalPlayers - completeProfiles,
        completionRate: percent(completeProfiles, totalPlayers),
        totalDocuments: season.documents,
        growth: query.compare
          ? {
              totalPlayers: previous ? growth(totalPlayers, previous.players) : null,
              completeProfiles: previous ? growth(completeProfiles, previous.complete) : null,
              previousSeason: previous ? ref(previous) : null,
            }
          : null,
      },
      documentStats,
      divisionStats: DIVISIONS.filter((division) => (query.division === 'all' ? inDivisionScope(principal, division) : query.division === division)).map((division) => {
        const row = divisions.get(division);
        return { division, players: row?.players ?? 0, complete: row?.complete ?? 0, completionRate: percent(row?.complete ?? 0, row?.players ?? 0) };
      }),
      monthly: monthlySeries(season.startsOn, season.endsOn, registered, completed),
      history: upTo.map((row) => ({
        season: ref(row),
        kind: row.kind,
        totalPlayers: row.players,
        completeProfiles: row.complete,
        completionRate: percent(row.complete, row.players),
      })),
      projections: projectSeasons({
        kind: season.kind,
        points: sameKind.map((row) => ({ year: row.year, players: row.players, completionRate: percent(row.complete, row.players) })),
        weakestType: weakest ? { label: DOC_TYPE_LABELS[weakest.docType], completionRate: weakest.completionRate } : undefined,
      }),
      players: incomplete.map((row) => {
        const { playerId, playerName, division, documentsStatus, completionPercentage } = toReportRow(row);
        return { playerId, playerName, division, documentsStatus, completionPercentage };
      }),
      playersTotal: totalPlayers - completeProfiles,
    };
  }

  return {
    getSeasonReport: (query: SeasonReportQuery, principal: TPrincipal) => getSeasonReport(query, principal),

    /**
     * GET /api/reports/season/export: the same report, within the same divisions, as a PDF (charts and tables,
     * the first SEASON_REPORT_MAX_PLAYERS incomplete players) or as CSV or Excel (every incomplete player).
     */
    async exportSeasonReport(query: SeasonReportQuery, format: TReportExportFormat, principal: TPrincipal): Promise<ReportFile> {
      const report = await getSeasonReport(query, principal, format === 'pdf' ? SEASON_REPORT_MAX_PLAYERS : SPREADSHEET_MAX_PLAYERS);
      const at = now();
      const doc = buildReportExport(report, at);
      const body = format === 'pdf' ? await seasonReportPdf(report, doc) : format === 'xlsx' ? await seasonReportXlsx(doc) : Buffer.from(seasonReportCsv(doc), 'utf8');
      return { body, contentType: REPORT_EXPORT_CONTENT_TYPES[format], fileName: seasonReportFileName(report.season.id, report.division, at, format) };
    },
  };
}
export type SeasonReportService = ReturnType<typeof createSeasonReportService>;
