import { describe, expect, it } from 'vitest';
import { ageFitsDivision, DEFAULT_DIVISION_AGES, DIVISIONS, leagueAge } from '../../contract';
import { derivePlayerId } from '../players';
import { generateDemoData } from './generate-demo-data';
import { data, OPTIONS, playerById, registrationByKey, seasonById, tally } from './demo-data.fixture';

describe('generateDemoData: players and registrations', () => {
  it('creates exactly the requested number of distinct player rows', () => {
    expect(data.players).toHaveLength(OPTIONS.players);
    expect(playerById.size).toBe(OPTIONS.players);
  });

  it('derives every player id from the name, birth date and season year with derivePlayerId', () => {
    for (const registration of data.registrations) {
      const player = playerById.get(registration.playerId);
      const season = seasonById.get(registration.seasonId);
      if (!player || !season) throw new Error(`dangling registration ${registration.playerId}`);
      expect(player.id).toMatch(/^CB-\d{4}-[0-9a-f]{8}$/);
      expect(player.id).toBe(
        derivePlayerId({ prefix: 'CB', year: season.year, firstName: player.firstName, lastName: player.lastName, birthDate: player.birthDate }),
      );
    }
  });

  it('uses the configured id prefix', () => {
    const other = generateDemoData({ ...OPTIONS, players: 50, idPrefix: 'HL7' });
    expect(other.players.every((p) => /^HL7-\d{4}-[0-9a-f]{8}$/.test(p.id))).toBe(true);
  });

  it('registers every player at least once, only in seasons of its id year, and once per season', () => {
    const registered = new Set(data.registrations.map((r) => r.playerId));
    expect(registered.size).toBe(data.players.length);
    expect(registrationByKey.size).toBe(data.registrations.length);
    for (const registration of data.registrations) {
      expect(registration.playerId.split('-')[1]).toBe(String(seasonById.get(registration.seasonId)?.year));
    }
  });

  it('gives some returning children a second player row, with a new id, in a later year', () => {
    const identities = tally(data.players, (p) => `${p.firstName}|${p.lastName}|${p.birthDate}`);
    const returning = [...identities.values()].filter((n) => n > 1).length;
    expect(returning).toBeGreaterThan(data.players.length * 0.1);
  });

  it('registers children of league age 4 to 12, nearly all in a division their age fits', () => {
    let outside = 0;
    for (const registration of data.registrations) {
      const player = playerById.get(registration.playerId);
      const season = seasonById.get(registration.seasonId);
      if (!player || !season) throw new Error('dangling registration');
      const age = leagueAge(player.birthDate, `${season.year}-08-31`);
      expect(age).toBeGreaterThanOrEqual(4);
      expect(age).toBeLessThanOrEqual(12);
      if (!ageFitsDivision(age, DEFAULT_DIVISION_AGES[registration.division])) outside += 1;
    }
    // A handful outside, as in a real league; the Players screen flags them.
    expect(outside).toBeGreaterThan(0);
    expect(outside).toBeLessThan(data.registrations.length * 0.04);
  });

  it('uses every division, with TEST only a few percent', () => {
    const perDivision = tally(data.registrations, (r) => r.division);
    expect([...perDivision.keys()].sort()).toEqual([...DIVISIONS].sort());
    const testShare = (perDivision.get('TEST') ?? 0) / data.registrations.length;
    expect(testShare).toBeGreaterThan(0);
    expect(testShare).toBeLessThan(0.06);
  });

  it('includes accented and hyphenated names', () => {
    const names = data.players.map((p) => `${p.firstName} ${p.lastName}`).join('\n');
    expect(names).toMatch(/José|Zoë/);
    expect(data.players.some((p) => /\p{L}-\p{L}/u.test(p.lastName))).toBe(true);
  });

  it('uses only example.org, example.com and example.net addresses and 555-01xx phone numbers', () => {
    for (const player of data.players) {
      if (player.guardianEmail) expect(player.guardianEmail).toMatch(/^[a-z0-9.]+@example\.(org|com|net)$/);
      if (player.guardianPhone) expect(player.guardianPhone).toMatch(/^\(\d{3}\) 555-01\d{2}$/);
    }
    for (const submission of data.submissions) {
      if (submission.fromEmail) expect(submission.fromEmail).toMatch(/@example\.(org|com|net)$/);
    }
  });

  it('leaves a few players without guardian details', () => {
    const without = data.players.filter((p) => p.guardianName === null).length;
    expect(without).toBeGreaterThan(0);
    expect(without).toBeLessThan(data.players.length * 0.1);
  });
});
