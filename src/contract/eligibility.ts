import { z } from 'zod';
import { DIVISIONS, type TDivision } from './domain';
import { ZSeasonParam } from './reports';

/**
 * GET /api/reports/eligibility.pdf: a division's eligibility packet for one season, a PDF to print and hand to
 * the league's district: every player of the division by last name with the date of birth, the league age and
 * each document's state, who verified it and when. A season is a year or a season id; omitted, the current one.
 */
export const ELIGIBILITY_PACKET_PATH = '/api/reports/eligibility.pdf';

export const ZEligibilityPacketQuery = z.object({
  season: ZSeasonParam.optional(),
  division: z.enum(DIVISIONS, { error: `must be a division (${DIVISIONS.join(', ')})` }),
});
export type TEligibilityPacketQuery = z.input<typeof ZEligibilityPacketQuery>;

/** What the packet's file is called: 'eligibility-AA-fall-2025.pdf'. */
export const eligibilityPacketFileName = (division: TDivision, seasonId: string): string => `eligibility-${division}-${seasonId}.pdf`;
