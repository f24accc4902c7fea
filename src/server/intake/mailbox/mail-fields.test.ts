import { describe, expect, it } from 'vitest';
import { readPlayerDetails, type MailSummary } from './mail-fields';
import { body, JANE, mail, read, TODAY } from './mail.fixture';

describe('readPlayerDetails fails with a sentence staff can act on', () => {
  it.each<[string, Partial<MailSummary>, string, Array<{ path: string; message: string }>]>([
    [
      'an empty mail',
      {},
      'No player name, date of birth or division found in the e-mail',
      [
        { path: 'playerName', message: 'No player name found in the e-mail' },
        { path: 'playerBirthDate', message: 'No date of birth found in the e-mail' },
        { path: 'division', message: 'No division found in the e-mail' },
      ],
    ],
    ['no name', { text: 'DOB: 2015-03-02\nDivision: AA' }, 'No player name found in the e-mail', [{ path: 'playerName', message: 'No player name found in the e-mail' }]],
    ['no date of birth', { text: 'Player: Jane Doe\nDivision: AA' }, 'No date of birth found in the e-mail', [{ path: 'playerBirthDate', message: 'No date of birth found in the e-mail' }]],
    ['no division', { text: 'Player: Jane Doe\nDOB: 2015-03-02' }, 'No division found in the e-mail', [{ path: 'division', message: 'No division found in the e-mail' }]],
    [
      'no date of birth or division',
      { subject: 'Documents for Jane Doe' },
      'No date of birth or division found in the e-mail',
      [
        { path: 'playerBirthDate', message: 'No date of birth found in the e-mail' },
        { path: 'division', message: 'No division found in the e-mail' },
      ],
    ],
    [
      'a missing name before a wrong date',
      { text: 'DOB: 2015-02-30\nDivision: AA' },
      'No player name found in the e-mail',
      [
        { path: 'playerName', message: 'No player name found in the e-mail' },
        { path: 'playerBirthDate', message: 'Date of birth "2015-02-30" is not a real date' },
      ],
    ],
    [
      'every wrong value listed',
      { text: 'Player: Jane\nDOB: 13/13/2015\nDivision: Majors\nSeason: soon' },
      'Player name "Jane" needs a first and a last name',
      [
        { path: 'playerName', message: 'Player name "Jane" needs a first and a last name' },
        { path: 'playerBirthDate', message: 'Date of birth "13/13/2015" is not a real date (dates are read as MM/DD/YYYY)' },
        { path: 'division', message: 'Division "Majors" is not one of AAA, AA, A, TEST, Peewee' },
        { path: 'season', message: 'Season "soon" is not a year (2025) or a season such as Fall Ball 2025' },
      ],
    ],
    [
      'two children in one mail',
      { text: 'Player: Jane Doe\nDOB: 2015-03-02\nPlayer: John Doe\nDOB: 2017-06-01\nDivision: AA' },
      'The e-mail names more than one player (Jane Doe, John Doe); send one e-mail per player',
      [
        { path: 'playerName', message: 'The e-mail names more than one player (Jane Doe, John Doe); send one e-mail per player' },
        { path: 'playerBirthDate', message: 'The e-mail gives more than one date of birth (2015-03-02, 2017-06-01)' },
      ],
    ],
    [
      'two divisions',
      { text: 'Player: Jane Doe\nDOB: 2015-03-02\nDivision: AA\nDivision: AAA' },
      'The e-mail gives more than one division (AA, AAA)',
      [{ path: 'division', message: 'The e-mail gives more than one division (AA, AAA)' }],
    ],
    [
      'two seasons',
      { text: `${body({})}\nSeason: Fall 2025\nSeason: Spring 2026` },
      'The e-mail gives more than one season (fall-2025, spring-2026)',
      [{ path: 'season', message: 'The e-mail gives more than one season (fall-2025, spring-2026)' }],
    ],
  ])('%s', (_label, overrides, error, details) => {
    expect(readPlayerDetails(mail(overrides), { today: TODAY })).toEqual({ ok: false, error, details });
  });

  it('counts the same player written twice, in either order, once', () => {
    expect(read({ text: 'Player: Jane Doe\nPlayer: Doe, Jane\nPlayer: jane doe\nDOB: 2015-03-02\nDOB: 03/02/2015\nDivision: AA\nDiv: aa' })).toEqual(JANE);
  });

  it('prefers a readable value to an unreadable one in the same text', () => {
    expect(read({ text: `${body({})}\nDivision: to be confirmed` })).toEqual(JANE);
  });

  it('echoes a hostile value short and without control characters', () => {
    const result = readPlayerDetails(mail({ text: body({ division: `Division: \u202Eevil"\u0007${'x'.repeat(200)}` }) }), { today: TODAY });
    expect(result).toMatchObject({ ok: false, error: `Division "evil${'x'.repeat(56)}…" is not one of AAA, AA, A, TEST, Peewee` });
  });
});

describe('readPlayerDetails takes the guardian e-mail from the sender', () => {
  it.each([
    ['mary.doe@example.com', 'mary.doe@example.com'],
    ['  mary.doe@example.com ', 'mary.doe@example.com'],
    ['Mary Doe <mary.doe@example.com>', 'mary.doe@example.com'],
    ['not an address', null],
    [null, null],
  ])('reads sender %j as %j', (fromAddress, guardianEmail) => {
    expect(read({ text: body({}), fromAddress })).toEqual({ ...JANE, guardianEmail });
  });

  it('ignores an e-mail line in the body: the sender is the guardian', () => {
    expect(read({ text: body({ extra: 'Email: someone.else@example.com' }) })).toEqual(JANE);
  });
});
