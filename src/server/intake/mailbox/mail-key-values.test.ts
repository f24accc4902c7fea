import { describe, expect, it } from 'vitest';
import { readPlayerDetails } from './mail-fields';
import { body, JANE, mail, read, TODAY } from './mail.fixture';

describe('readPlayerDetails reads Key: value lines', () => {
  it('reads a complete body', () => {
    const text = ['Hi, here are the documents.', '', 'Player: Jane Doe', 'Date of Birth: 03/02/2015', 'Division: AA', 'Season: Fall Ball 2025', 'Parent: Mary Doe', 'Phone: (555) 123-4567', '', 'Thanks!'].join('\n');
    expect(readPlayerDetails(mail({ text }), { today: TODAY })).toEqual({
      ok: true,
      player: { ...JANE, season: 'fall-2025', guardianName: 'Mary Doe', guardianPhone: '(555) 123-4567' },
    });
  });

  it.each([
    ['Player: Jane Doe'],
    ['Player Name: Jane Doe'],
    ['PLAYER NAME: Jane Doe'],
    ["Player's Name: Jane Doe"],
    ['Player’s name: Jane Doe'],
    ['player full name: Jane Doe'],
    ['Name of Player: Jane Doe'],
    ['Child: Jane Doe'],
    ["Child's Name: Jane Doe"],
    ['First Name: Jane\nLast Name: Doe'],
    ['Player First Name: Jane\nPlayer Last Name: Doe'],
    ['Last name: Doe\nFirst name: Jane'],
    ['  Player:   Jane   Doe  '],
    ['- Player: Jane Doe'],
    ['• Player: Jane Doe'],
    ['*Player:* Jane Doe'],
    ['**Player**: Jane Doe'],
    ['Player : Jane Doe'],
    ['Player：Jane Doe'],
    ['Player: Jane Doe.'.replace('.', ';')],
    ['Player: "Jane Doe"'],
  ])('reads the name from %j', (name) => {
    expect(read({ text: body({ name }) })).toEqual(JANE);
  });

  it.each([
    ['DOB: 2015-03-02'],
    ['D.O.B.: 2015-03-02'],
    ['dob: 2015-03-02'],
    ['Date of Birth: 2015-03-02'],
    ['date of birth: 2015-03-02'],
    ['Birth Date: 2015-03-02'],
    ['Birthdate: 2015-03-02'],
    ['Birthday: 2015-03-02'],
    ['Date-of-Birth: 2015-03-02'],
    ['Player DOB: 2015-03-02'],
  ])('reads the date of birth from %j', (birthDate) => {
    expect(read({ text: body({ birthDate }) })).toEqual(JANE);
  });

  it.each([['Division: AA'], ['division: aa'], ['DIVISION: Aa'], ['Div: AA'], ['Div.: AA'], ['Division: AA Division'], ['Division: Double A'], ['Division: AA (Majors)']])(
    'reads the division from %j',
    (division) => {
      expect(read({ text: body({ division }) })).toEqual(JANE);
    },
  );

  it.each([
    ['Player: Jane Doe, DOB: 03/02/2015, Division: AA'],
    ['Player: Jane Doe; DOB: 03/02/2015; Division: AA'],
    ['Player: Jane Doe | DOB: 03/02/2015 | Division: AA'],
    ['Player: Jane Doe - DOB: 03/02/2015 - Division: AA'],
    ['Player: Jane Doe DOB: 03/02/2015 Division: AA'],
    ['Player:\tJane Doe\tDate of Birth:\t03/02/2015\tDivision:\tAA'],
  ])('reads several pairs on one line: %j', (text) => {
    expect(read({ text })).toEqual(JANE);
  });

  it.each([
    ['Guardian: Mary Doe', 'Mary Doe'],
    ['Guardian Name: Mary Doe', 'Mary Doe'],
    ['Parent: Mary Doe', 'Mary Doe'],
    ['Parent Name: Mary Doe', 'Mary Doe'],
    ['Parent/Guardian: Mary Doe', 'Mary Doe'],
    ['Parent / Guardian Name: Mary Doe', 'Mary Doe'],
    ['Parent: Mary Doe <mary.doe@example.com>', 'Mary Doe'],
    ['Parent: Mary & John Doe', 'Mary & John Doe'],
    ['Parent: mary.doe@example.com', null],
  ])('reads the guardian from %j', (extra, guardianName) => {
    expect(read({ text: body({ extra }) })).toEqual({ ...JANE, guardianName });
  });

  it.each([
    ['Phone: (555) 123-4567', '(555) 123-4567'],
    ['Phone #: 555-123-4567', '555-123-4567'],
    ['Phone Number: +1 555 123 4567', '+1 555 123 4567'],
    ['Cell: 555.123.4567', '555.123.4567'],
    ['Mobile: 555-123-4567 (cell)', '555-123-4567'],
    ['Tel: 555 123 4567 mobile', '555 123 4567'],
    ['Phone: call me anytime', null],
    ['Phone: 12', null],
  ])('reads the phone from %j, leaving an unreadable one empty', (extra, guardianPhone) => {
    expect(read({ text: body({ extra }) })).toEqual({ ...JANE, guardianPhone });
  });

  it.each([
    ['Player Name:\nJane Doe\nDate of Birth:\n03/02/2015\nDivision:\nAA'],
    ['Player Name:\n\nJane Doe\n\nDate of Birth:\n\n03/02/2015\n\nDivision:\n\nAA'],
    ['*Player Name:*\n  Jane Doe  \nDOB: 03/02/2015\nDivision: AA'],
  ])('reads a value on the line under its label: %j', (text) => {
    expect(read({ text })).toEqual(JANE);
  });

  it('does not take the next label, or a line two blank lines down, for a value', () => {
    expect(read({ text: 'Player:\nDivision: AA\nDOB: 2015-03-02' })).toBe('No player name found in the e-mail');
    expect(read({ text: 'Player:\n\n\nJane Doe\nDivision: AA\nDOB: 2015-03-02' })).toBe('No player name found in the e-mail');
    expect(read({ text: 'Player:\nCoach: Smith\nDivision: AA\nDOB: 2015-03-02' })).toBe('No player name found in the e-mail');
  });

  it('does not take a bare "Name:" for the player, since it is as often the parent', () => {
    expect(read({ text: 'Name: Jane Doe\nDOB: 2015-03-02\nDivision: AA' })).toBe('No player name found in the e-mail');
  });

  it('does not read a colon in prose as a key', () => {
    expect(read({ text: body({ extra: 'Regarding last season: we moved to Ohio' }) })).toEqual(JANE);
    expect(read({ text: body({ extra: 'A note about the division: she may move up' }) })).toEqual(JANE);
  });

  it('ends a value at the next key, known or not', () => {
    expect(read({ text: body({ name: 'Player: Jane Doe, Coach: Smith' }) })).toEqual(JANE);
  });
});
