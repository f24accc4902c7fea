import {
  ageFitsDivision,
  divisionAgesText,
  DOC_TYPE_COLUMN_LABELS,
  DOC_TYPES,
  leagueAge,
  PLAYER_DOC_STATUS_LABELS,
  type TDivision,
  type TDocType,
  type TPlayerDocStatus,
  type TRequirementRule,
} from '../../contract';
import { countingApprovals, judgingDay, utcDay, type RuleDocument } from '../requirements';
import type { SeasonRow } from '../seasons';
import type { EligibilityDocumentRow, EligibilityRosterRow } from './eligibility.repository';

/** A verified document of the division's children, as the rule engine reads it, with what the packet prints. */
type PacketSource = EligibilityDocumentRow & RuleDocument;
import { generatedText } from './season-report-export';

/**
 * The eligibility packet (GET /api/reports/eligibility.pdf): a division's players in a season, by last name, with
 * the date of birth, the league age on the season's age date (and whether it fits the division's ages), and per
 * document type its state as the registration summary judges it and the verification behind it: who verified
 * which document and when, for a medical form its exam date, for an approval carried over from an earlier season
 * of the same child (a birth certificate) that season's name. The summary decides the state; the packet only
 * names the documents behind it, as the rule engine counts them (countingApprovals).
 */

const STATUS_KEYS: Record<TDocType, 'birthCertificate' | 'residency' | 'medical' | 'waiver'> = {
  birth_certificate: 'birthCertificate',
  residency: 'residency',
  medical: 'medical',
  waiver: 'waiver',
};

/** One document's verification as the packet prints it. */
export type PacketVerification = {
  by: string | null;
  at: Date;
  /** A medical form's exam date (a residency document's date), YYYY-MM-DD; null when none was recorded. */
  documentDate: string | null;
  /** The earlier season's name when the document was handed in for another season; null for this season's. */
  fromSeason: string | null;
};

export type PacketDocument = { docType: TDocType; status: TPlayerDocStatus; verifications: PacketVerification[] };

export type PacketPlayer = {
  name: string;
  birthDate: string;
  leagueAge: number | null;
  /** 'Outside division ages (ages 8–10)' when the league age does not fit the division; null otherwise. */
  ageFlag: string | null;
  documents: PacketDocument[];
};

export type EligibilityPacket = {
  title: string;
  /** 'AA · Fall Ball 2025'. */
  subtitle: string;
  /** 'Generated 26 Nov 2026, 07:40 UTC by Jane Admin'. */
  generated: string;
  /** 'League age on 31 Aug 2025 · AA takes ages 8–10 · 12 players'. */
  note: string;
  seasonName: string;
  division: TDivision;
  players: PacketPlayer[];
};

/** The packet's content: the roster in its order, each type's state and the verifications behind a met one. */
export function buildEligibilityPacket(input: {
  season: Pick<SeasonRow, 'id' | 'name' | 'ageDate' | 'divisionAges' | 'endsOn'>;
  division: TDivision;
  roster: readonly EligibilityRosterRow[];
  documents: readonly EligibilityDocumentRow[];
  rules: readonly TRequirementRule[];
  /** The day the registration summaries are judged on (the season's last day is used once it has ended). */
  requirementDay: string;
  generatedAt: Date;
  generatedBy: string;
}): EligibilityPacket {
  const { season, division } = input;
  const judged = judgingDay(input.requirementDay, season.endsOn);
  const ages = season.divisionAges[division];
  const byChild = new Map<string, PacketSource[]>();
  for (const row of input.documents) {
    const doc: PacketSource = { ...row, status: 'verified', purged: false };
    byChild.set(row.childKey, [...(byChild.get(row.childKey) ?? []), doc]);
  }
  const players = input.roster.map((row): PacketPlayer => {
    const age = season.ageDate === null ? null : leagueAge(row.birthDate, season.ageDate);
    const childDocuments = byChild.get(row.childKey) ?? [];
    return {
      name: `${row.lastName}, ${row.firstName}`,
      birthDate: row.birthDate,
      leagueAge: age,
      ageFlag: age !== null && !ageFitsDivision(age, ages) ? `Outside division ages (${divisionAgesText(ages)})` : null,
      documents: DOC_TYPES.map((docType) => {
        const status = row[STATUS_KEYS[docType]];
        const rule = input.rules.find((r) => r.docType === docType);
        const verified =
          status === 'complete' && rule
            ? countingApprovals(rule, { seasonId: season.id }, childDocuments, judged).map((doc) => ({
                by: doc.reviewedBy,
                at: doc.reviewedAt ?? doc.uploadedAt,
                documentDate: doc.documentDate,
                fromSeason: doc.seasonId === season.id ? null : doc.seasonName,
              }))
            : [];
        return { docType, status, verifications: verified };
      }),
    };
  });
  const agesNote = ages === undefined ? `${division} takes any age` : `${division} takes ${divisionAgesText(ages)}`;
  return {
    title: `Eligibility packet — ${division}, ${season.name}`,
    subtitle: `${division} · ${season.name}`,
    generated: `Generated ${generatedText(input.generatedAt)} by ${input.generatedBy}`,
    note: [season.ageDate === null ? 'No league age day is set' : `League age on ${dayText(season.ageDate)}`, agesNote, players.length === 1 ? '1 player' : `${players.length} players`].join(' · '),
    seasonName: season.name,
    division,
    players,
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** '2025-09-02' → '2 Sep 2025' (named here, not by the runtime's locale data, which may say 'Sept'). */
export function dayText(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1] ?? m} ${y}`;
}

/** A type's state and what backs it, in words: 'Verified by Jane Doe on 3 Mar 2024 (in Fall Ball 2024)'. */
export function documentLine(document: PacketDocument): { state: string; detail: string } {
  const state = PLAYER_DOC_STATUS_LABELS[document.status];
  const detail = document.verifications
    .map((v) => {
      const parts = [`${v.by === null ? 'Verified' : `by ${v.by}`} on ${dayText(utcDay(v.at))}`];
      if (document.docType === 'medical' && v.documentDate !== null) parts.push(`exam ${dayText(v.documentDate)}`);
      if (v.fromSeason !== null) parts.push(`from ${v.fromSeason}`);
      return parts.join(', ');
    })
    .join('; ');
  return { state, detail };
}

export const documentLabel = (docType: TDocType): string => DOC_TYPE_COLUMN_LABELS[docType];
