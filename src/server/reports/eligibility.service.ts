import { eligibilityPacketFileName, type TDivision, type TPrincipal } from '../../contract';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { findCurrentSeason, listSeasonRequirements, resolveSeason } from '../seasons';
import { buildEligibilityPacket } from './eligibility';
import { readRequirementDay } from '../requirements';
import { readEligibilityDocuments, readEligibilityRoster } from './eligibility.repository';
import { eligibilityPacketPdf } from './eligibility-pdf';
import { divisionsInScope } from './reports.service';
import type { ReportFile } from './season-report.service';

/** GET /api/reports/eligibility.pdf (eligibility.ts says what the packet holds). */
export function createEligibilityService(deps: { db: Db; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    /** The division's packet as a PDF, within the principal's divisions (another division answers 404, as the reports do). */
    async packetPdf(query: { season?: string | undefined; division: TDivision }, principal: TPrincipal): Promise<ReportFile> {
      divisionsInScope(query.division, principal);
      const season = query.season === undefined ? await findCurrentSeason(db) : await resolveSeason(db, query.season);
      if (!season) throw new AppError('NOT_FOUND', query.season === undefined ? 'No season exists yet.' : `Season "${query.season}" does not exist.`);
      if (!season.divisions.includes(query.division)) throw new AppError('NOT_FOUND', `${season.name} has no ${query.division} division.`);
      const [roster, documents, rules, requirementDay] = await Promise.all([
        readEligibilityRoster(db, season.id, query.division),
        readEligibilityDocuments(db, season.id, query.division),
        listSeasonRequirements(db, season.id),
        readRequirementDay(db),
      ]);
      const packet = buildEligibilityPacket({ season, division: query.division, roster, documents, rules, requirementDay, generatedAt: now(), generatedBy: principal.name });
      return { body: await eligibilityPacketPdf(packet), contentType: 'application/pdf', fileName: eligibilityPacketFileName(query.division, season.id) };
    },
  };
}
export type EligibilityService = ReturnType<typeof createEligibilityService>;
