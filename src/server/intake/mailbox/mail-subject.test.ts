import { describe, expect, it } from 'vitest';
import type { MailPlayer } from './mail-fields';
import { JANE, read } from './mail.fixture';

describe('readPlayerDetails reads the subject', () => {
  const DETAILS = 'DOB: 2015-03-02\nDivision: AA';

  it.each<[string, Partial<MailPlayer>]>([
    ['Documents for Jane Doe', {}],
    ['documents for Jane Doe', {}],
    ['Registration documents for Jane Doe', {}],
    ['Birth certificate for Jane Doe', {}],
    ['Forms for Doe, Jane', {}],
    ['Re: Missing documents for Jane Doe', {}],
    ['RE: Fwd: [EXTERNAL] Documents for Jane Doe', {}],
    ['Documents for Jane Doe (AA)', {}],
    ['Waiver for Ana de la Cruz', { firstName: 'Ana', lastName: 'de la Cruz' }],
    ["Jane Doe's birth certificate", {}],
    ['Jane Doe’s documents', {}],
    ['Registration - Jane Doe - AA', {}],
    ['Registration – Jane Doe – AA', {}],
    ['Registration | Jane Doe | AA', {}],
    ['Jane Doe - Medical Form', {}],
    ['Registration: Jane Doe', {}],
    ['Registration: Doe, Jane', {}],
    ['Documents for Иван Петров', { firstName: 'Иван', lastName: 'Петров' }],
    ['Documents for Ελένη Παπαδοπούλου', { firstName: 'Ελένη', lastName: 'Παπαδοπούλου' }],
    ['Registration - 王 小明', { firstName: '王', lastName: '小明' }],
    ['Documents for José Ñúñez', { firstName: 'José', lastName: 'Ñúñez' }],
    ['Documents for Jose\u0301 Nu\u0301n\u0303ez', { firstName: 'José', lastName: 'Núñez' }],
    ['Documents\u00A0for\u00A0Jane\u00A0Doe', {}],
    ['Documents for \u200BJane\u200B Doe\u200E', {}],
    ['  Documents   for\tJane  Doe  ', {}],
  ])('reads the player from %j', (subject, change) => {
    expect(read({ subject, text: DETAILS })).toEqual({ ...JANE, ...change });
  });

  it.each([
    ['Documents'],
    ['Registration'],
    ['Documents for my son'],
    ['Documents for My Son Jack'],
    ['Documents for Jane'],
    ['Documents for The Eagles'],
    ['Documents for AA tryouts'],
    ['Registration - Payment Issue'],
    ['Registration - Question About Fees'],
    ['Registration - see attached'],
    ['Hello Jane Doe'],
    ['Jane Doe'],
    ['Jane Doe - Thanks'],
    ['Eagles Travel - Jane Doe - Registration'],
    ['Documents for jane doe'],
    ['Documents for Jane Doe 2'],
    ['Документы для Иван Петров'],
    [''],
  ])('guesses no player from %j', (subject) => {
    expect(read({ subject, text: DETAILS })).toBe('No player name found in the e-mail');
  });

  it.each<[string, string, Partial<MailPlayer>]>([
    ['Registration - Jane Doe - AA', 'DOB: 2015-03-02', {}],
    ['Registration - Jane Doe - aaa', 'DOB: 2015-03-02', { division: 'AAA' }],
    ['Documents for Jane Doe (Peewee)', 'DOB: 2015-03-02', { division: 'Peewee' }],
    ['Documents for Jane Doe, A', 'DOB: 2015-03-02', { division: 'A' }],
    ['Jane Doe - AA Division - Registration', 'DOB: 2015-03-02', {}],
    ['Documents, Division AAA', 'Player: Jane Doe\nDOB: 2015-03-02', { division: 'AAA' }],
    ['Registration - Jane Doe - AA - 03/02/2015', '', {}],
    ['Registration - Jane Doe - March 2, 2015 - AA', '', {}],
    ['Player: Jane Doe, DOB: 03/02/2015, Division: AA', '', {}],
    ['Player: Jane Doe - DOB: 03/02/2015 - Division: AA', '', {}],
    ['Fall Ball 2025 registration - Jane Doe - AA', 'DOB: 2015-03-02', { season: 'fall-2025' }],
    ['Registration Spring 2026 - Jane Doe - AA', 'DOB: 2015-03-02', { season: 'spring-2026' }],
  ])('reads more than the name from %j', (subject, text, change) => {
    expect(read({ subject, text })).toEqual({ ...JANE, ...change });
  });

  it('does not take "a division" for the A division', () => {
    expect(read({ subject: 'Documents for Jane Doe - moving up a division', text: 'DOB: 2015-03-02' })).toBe('No division found in the e-mail');
  });

  it('lets body lines win over the subject', () => {
    const player = read({ subject: 'Registration - John Smith - AAA - Fall Ball 2025', text: 'Player: Jane Doe\nDOB: 2015-03-02\nDivision: AA\nSeason: 2026' });
    expect(player).toEqual({ ...JANE, season: '2026' });
  });

  it('takes from the subject only what the body lacks', () => {
    const player = read({ subject: 'Registration - John Smith - AAA', text: 'DOB: 2015-03-02\nDivision: AA' });
    expect(player).toEqual({ ...JANE, firstName: 'John', lastName: 'Smith' });
  });

  it('uses a readable subject value when the body value cannot be read', () => {
    expect(read({ subject: 'Player: Jane Doe, Division: AA', text: 'Player: Jane\nDOB: 2015-03-02' })).toEqual(JANE);
  });
});
