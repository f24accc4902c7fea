import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZDocumentList, ZMissingReport, ZUserList } from '../../src/contract';
import { insertDocuments, type NewDocument } from '../../src/server/documents';
import { insertPlayers, upsertPlayer } from '../../src/server/players/players.repository';
import { insertRegistrations } from '../../src/server/players/registrations.repository';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { insertUsers } from '../../src/server/users/users.repository';
import { describeEachDatabase } from '../support/databases';
import { FALL_2025 } from '../support/pipeline';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

/**
 * Every search box ignores case and accents, both ways: a name typed without its accents finds the accented
 * one, an accented or capitalised one finds the plain one, on the Players (names, player id, guardian),
 * Documents (player name, file name) and Users (names, e-mail) searches; LIKE's wildcards stay plain characters.
 */

const player = (id: string, firstName: string, lastName: string, guardianName: string | null, guardianEmail: string | null) => ({
  id: `CB-2025-${id}`,
  firstName,
  lastName,
  birthDate: '2014-05-01',
  guardianName,
  guardianEmail,
});
const SOFIA = player('000000a1', 'Sofía', 'Martínez', 'Françoise Côté', 'francoise.cote@example.org');
const ANA = player('000000a2', 'Ana', 'Martinez', 'Luis Martinez', 'luis@example.org');
const ZOE = player('000000a3', 'Zoë', 'Müller', null, null);
const PENA = player('000000a4', 'José', 'Peña_100%', 'Björn Peña', 'bjorn@example.org');
const PLAYERS = [SOFIA, ANA, ZOE, PENA];

let sha = 0;
const doc = (playerId: string, originalFilename: string): NewDocument & { id: string } => ({
  id: randomUUID(),
  playerId,
  seasonId: FALL_2025.id,
  docType: 'birth_certificate',
  status: 'pending',
  originalFilename,
  bytes: 1000,
  fileSha256: (++sha).toString(16).padStart(64, '0'),
  storageDriver: 'local',
  storageKey: `seasons/2025/search/${sha}.pdf`,
  uploadedAt: new Date(Date.UTC(2025, 8, 1, 12, sha)),
});
const D = {
  sofia: doc(SOFIA.id, 'acta.pdf'),
  ana: doc(ANA.id, 'scan_1.pdf'),
  zoe: doc(ZOE.id, 'Résumé MÉDICAL.pdf'),
  pena: doc(PENA.id, 'Waiver 50%.pdf'),
};

const USERS = [
  { id: randomUUID(), email: 'francoise.lefevre@example.org', firstName: 'Françoise', lastName: 'Lefèvre', role: 'moderator', status: 'active' },
  { id: randomUUID(), email: 'JOSE.GARCIA@EXAMPLE.ORG', firstName: 'Jose', lastName: 'GARCIA', role: 'viewer', status: 'active' },
  { id: randomUUID(), email: 'jose.garcia@example.net', firstName: 'José', lastName: 'García', role: 'viewer', status: 'active' },
  { id: randomUUID(), email: 'wild_card@example.org', firstName: 'Percy', lastName: '100%Sure', role: 'viewer', status: 'active' },
] as const;

describeEachDatabase('search ignores case and accents', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const get = async (url: string) => {
    if (!server) throw new Error('not started');
    const response = await server.app.inject({ method: 'GET', url, headers: { cookie: server.cookie } });
    expect(response.statusCode, response.body).toBe(200);
    const body: unknown = response.json();
    return body;
  };
  const q = encodeURIComponent;
  /** The Players search: the player ids found, sorted. */
  const players = async (search: string) => {
    const report = ZMissingReport.parse(await get(`/api/report/missing?search=${q(search)}&pageSize=50`));
    expect(report.total, search).toBe(report.players.length);
    return report.players.map((row) => row.playerId).sort();
  };
  const documents = async (search: string) => {
    const list = ZDocumentList.parse(await get(`/api/documents?search=${q(search)}`));
    expect(list.total, search).toBe(list.documents.length);
    return list.documents.map((row) => row.id).sort();
  };
  const users = async (search: string) => ZUserList.parse(await get(`/api/users?search=${q(search)}`)).users.map((user) => user.email).sort();
  const ids = (...rows: Array<{ id: string }>) => rows.map((row) => row.id).sort();

  beforeAll(async () => {
    const { db } = getDatabase();
    await insertSeasons(db, [FALL_2025]);
    await insertPlayers(db, PLAYERS);
    await insertRegistrations(db, PLAYERS.map((p) => ({ playerId: p.id, seasonId: FALL_2025.id, division: 'AA' as const })));
    await insertDocuments(db, Object.values(D));
    await insertUsers(db, USERS.map((user) => ({ ...user })));
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-search-accents', startWorkers: false });
  });
  afterAll(() => server?.close());

  it('Players: a name without accents finds the accented one, and the other way round, in any case', async () => {
    expect(await players('martinez')).toEqual([SOFIA.id, ANA.id]);
    expect(await players('MARTÍNEZ')).toEqual([SOFIA.id, ANA.id]);
    expect(await players('Martínez')).toEqual([SOFIA.id, ANA.id]);
    expect(await players('sofia martinez')).toEqual([SOFIA.id]);
    expect(await players('MARTINEZ, SOFÍA')).toEqual([SOFIA.id]);
    expect(await players('martínez ana')).toEqual([ANA.id]);
    expect(await players('zoe')).toEqual([ZOE.id]);
    expect(await players('MULLER')).toEqual([ZOE.id]);
    expect(await players('Müller')).toEqual([ZOE.id]);
    expect(await players('pena')).toEqual([PENA.id]);
    expect(await players('cb-2025-000000A3')).toEqual([ZOE.id]);
  });

  it("Players: the guardian's name and e-mail are searched the same way, and follow a change of guardian", async () => {
    expect(await players('francoise')).toEqual([SOFIA.id]);
    expect(await players('FRANÇOISE CÔTÉ')).toEqual([SOFIA.id]);
    expect(await players('Francoise.Cote@')).toEqual([SOFIA.id]);
    expect(await players('bjorn')).toEqual([PENA.id]);
    expect(await players('luis martínez')).toEqual([ANA.id]);

    // A newer submission brings another guardian: the search finds the new one, no longer the old one.
    await upsertPlayer(getDatabase().db, { ...SOFIA, guardianName: 'Renée Núñez', guardianEmail: 'renee.nunez@example.org' });
    expect(await players('renee nunez')).toEqual([SOFIA.id]);
    expect(await players('RENÉE.NÚÑEZ@EXAMPLE')).toEqual([SOFIA.id]);
    expect(await players('francoise')).toEqual([]);
    expect(await players('martinez')).toEqual([SOFIA.id, ANA.id]);
  });

  it('Players: % and _ are the characters themselves, accents or not', async () => {
    expect(await players('%')).toEqual([PENA.id]);
    expect(await players('peña_1')).toEqual([PENA.id]);
    expect(await players('PENA_100%')).toEqual([PENA.id]);
    expect(await players('pen_')).toEqual([]);
    expect(await players('m%z')).toEqual([]);
    expect(await players('\\')).toEqual([]);
  });

  it("Documents: the player's name and the file name without accents find the accented ones, and the other way round", async () => {
    expect(await documents('martinez')).toEqual(ids(D.sofia, D.ana));
    expect(await documents('MARTÍNEZ')).toEqual(ids(D.sofia, D.ana));
    expect(await documents('sofia martinez')).toEqual(ids(D.sofia));
    expect(await documents('zoe muller')).toEqual(ids(D.zoe));
    expect(await documents('resume medical')).toEqual(ids(D.zoe));
    expect(await documents('RÉSUMÉ médical')).toEqual(ids(D.zoe));
    expect(await documents('%')).toEqual(ids(D.pena));
    // Ana's file name and Peña_100%'s name hold a '_'; as a wildcard it would have matched every document.
    expect(await documents('_')).toEqual(ids(D.ana, D.pena));
    expect(await documents('50%.PDF')).toEqual(ids(D.pena));
    expect(await documents('scan%')).toEqual([]);
  });

  it('Users: first name, last name and e-mail without accents find the accented ones, and the other way round', async () => {
    const [francoise, plainJose, jose, percy] = USERS;
    expect(await users('francoise')).toEqual([francoise.email]);
    expect(await users('LEFEVRE')).toEqual([francoise.email]);
    expect(await users('françoise lefèvre')).toEqual([francoise.email]);
    expect(await users('jose garcia')).toEqual([plainJose.email, jose.email].sort());
    expect(await users('JOSÉ GARCÍA')).toEqual([plainJose.email, jose.email].sort());
    expect(await users('José.García@example.NET')).toEqual([jose.email]);
    expect(await users('%')).toEqual([percy.email]);
    expect(await users('w_ld')).toEqual([]);
  });
});
