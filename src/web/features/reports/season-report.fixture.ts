import type { TSeasonReport } from '../../../contract';

/**
 * A hand-counted season report for the unit tests: Fall Ball 2025, ten players in three divisions, four of them
 * complete; three Fall Ball seasons on a straight line of players (6, 8, 10), so the projection is 12 then 14.
 */
export function seasonReportFixture(overrides: Partial<TSeasonReport> = {}): TSeasonReport {
  return {
    season: { id: 'fall-2025', name: 'Fall Ball 2025', year: 2025, kind: 'Fall Ball' },
    division: 'all',
    summary: {
      totalPlayers: 10,
      completeProfiles: 4,
      incompleteProfiles: 6,
      completionRate: 40,
      totalDocuments: 31,
      growth: { totalPlayers: 25, completeProfiles: 100, previousSeason: { id: 'fall-2024', name: 'Fall Ball 2024', year: 2024 } },
    },
    documentStats: [
      { docType: 'birth_certificate', complete: 8, pending: 1, processing: 0, missing: 1, completionRate: 80 },
      { docType: 'residency', complete: 6, pending: 2, processing: 1, missing: 1, completionRate: 60 },
      { docType: 'medical', complete: 5, pending: 1, processing: 0, missing: 4, completionRate: 50 },
      { docType: 'waiver', complete: 7, pending: 0, processing: 1, missing: 2, completionRate: 70 },
    ],
    divisionStats: [
      { division: 'AAA', players: 4, complete: 2, completionRate: 50 },
      { division: 'AA', players: 3, complete: 1, completionRate: 33.3 },
      { division: 'A', players: 3, complete: 1, completionRate: 33.3 },
      { division: 'TEST', players: 0, complete: 0, completionRate: 0 },
      { division: 'Peewee', players: 0, complete: 0, completionRate: 0 },
    ],
    monthly: [
      { month: '2025-08', registrations: 6, completions: 1 },
      { month: '2025-09', registrations: 3, completions: 2 },
      { month: '2025-10', registrations: 1, completions: 1 },
      { month: '2025-11', registrations: 0, completions: 0 },
    ],
    history: [
      { season: { id: 'fall-2023', name: 'Fall Ball 2023', year: 2023 }, kind: 'Fall Ball', totalPlayers: 6, completeProfiles: 1, completionRate: 16.7 },
      { season: { id: 'spring-2024', name: 'Spring Ball 2024', year: 2024 }, kind: 'Spring Ball', totalPlayers: 5, completeProfiles: 2, completionRate: 40 },
      { season: { id: 'fall-2024', name: 'Fall Ball 2024', year: 2024 }, kind: 'Fall Ball', totalPlayers: 8, completeProfiles: 2, completionRate: 25 },
      { season: { id: 'spring-2025', name: 'Spring Ball 2025', year: 2025 }, kind: 'Spring Ball', totalPlayers: 6, completeProfiles: 3, completionRate: 50 },
      { season: { id: 'fall-2025', name: 'Fall Ball 2025', year: 2025 }, kind: 'Fall Ball', totalPlayers: 10, completeProfiles: 4, completionRate: 40 },
    ],
    projections: {
      enoughHistory: true,
      periods: [
        { period: 'Fall Ball 2026', projectedPlayers: 12, projectedCompletion: 50.5, confidenceLevel: 48, factors: ['Players grew by 2 a season'] },
        { period: 'Fall Ball 2027', projectedPlayers: 14, projectedCompletion: 62.2, confidenceLevel: 43, factors: ['Medical Form is the weakest type at 50%'] },
      ],
    },
    players: [
      {
        playerId: 'clearbase-2025-00000001',
        playerName: 'Ava Smith',
        division: 'AA',
        documentsStatus: { birth_certificate: 'missing', residency: 'pending', medical: 'missing', waiver: 'processing' },
        completionPercentage: 0,
      },
      {
        playerId: 'clearbase-2025-00000002',
        playerName: 'Renée "Rae" Côté, Jr',
        division: 'AAA',
        documentsStatus: { birth_certificate: 'complete', residency: 'complete', medical: 'pending', waiver: 'complete' },
        completionPercentage: 75,
      },
    ],
    playersTotal: 6,
    ...overrides,
  };
}
