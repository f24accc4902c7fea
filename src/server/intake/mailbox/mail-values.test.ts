import { describe, expect, it } from 'vitest';
import { body, JANE, read } from './mail.fixture';

describe('readPlayerDetails splits names', () => {
  it.each<[string, string, string]>([
    ['Jane Doe', 'Jane', 'Doe'],
    ['Doe, Jane', 'Jane', 'Doe'],
    ['Doe , Jane Marie', 'Jane Marie', 'Doe'],
    ['Jane Marie Doe', 'Jane', 'Marie Doe'],
    ['Ana de la Cruz', 'Ana', 'de la Cruz'],
    ['Jan van der Berg', 'Jan', 'van der Berg'],
    ["Zoë O'Brien-Smith", 'Zoë', "O'Brien-Smith"],
    ['Liam O’Neil Jr.', 'Liam', 'O’Neil Jr.'],
    ['Jane Doe.', 'Jane', 'Doe'],
    ['Jane B. Doe', 'Jane', 'B. Doe'],
    ['José Ñúñez', 'José', 'Ñúñez'],
    ['Jane Doe (AA)', 'Jane', 'Doe'],
    ['Jane Doe, AA', 'Jane', 'Doe'],
    ['Jane Doe - Fall Ball 2025', 'Jane', 'Doe'],
    ['JANE DOE', 'JANE', 'DOE'],
    ['Иван Петров', 'Иван', 'Петров'],
    ['Ελένη Παπαδοπούλου', 'Ελένη', 'Παπαδοπούλου'],
    ['王 小明', '王', '小明'],
    ['山田 太郎', '山田', '太郎'],
    ['김 민준', '김', '민준'],
    ['محمد علي', 'محمد', 'علي'],
    ['आरव शर्मा', 'आरव', 'शर्मा'],
    ['Nguyễn Văn An', 'Nguyễn', 'Văn An'],
    ['Łukasz Żółć', 'Łukasz', 'Żółć'],
  ])('reads %j as first %j, last %j', (name, firstName, lastName) => {
    expect(read({ text: body({ name: `Player: ${name}` }) })).toEqual({ ...JANE, firstName, lastName });
  });

  it('composes decomposed accents (NFD from macOS) into the usual form', () => {
    const player = read({ text: body({ name: 'Player: Jose\u0301 Nu\u0301n\u0303ez' }) });
    expect(player).toEqual({ ...JANE, firstName: 'José', lastName: 'Núñez' });
  });

  it('drops invisible direction marks around a name', () => {
    expect(read({ text: body({ name: 'Player: \u202BJane\u202C \u200FDoe' }) })).toEqual(JANE);
  });

  it.each([
    ['Player: Jane', 'Player name "Jane" needs a first and a last name'],
    ['Player: 山田太郎', 'Player name "山田太郎" needs a first and a last name'],
    ['Player: J4ne Doe', 'Player name "J4ne Doe" can only have letters, spaces, hyphens and apostrophes'],
    ['Player: Jane <b>Doe</b>', 'Player name "Jane <b>Doe</b>" can only have letters, spaces, hyphens and apostrophes'],
    ['Player: Doe, Jane, Marie', 'Player name "Doe, Jane, Marie" is not a first and last name'],
    ['First Name: Jane', 'No player last name found in the e-mail'],
    ['Last Name: Doe', 'No player first name found in the e-mail'],
    [`Player: Jane ${'x'.repeat(101)}`, `Player name "Jane ${'x'.repeat(55)}…" is longer than 100 characters`],
  ])('refuses %j', (name, error) => {
    expect(read({ text: body({ name }) })).toBe(error);
  });
});

describe('readPlayerDetails reads divisions and seasons', () => {
  it.each([
    ['AAA', 'AAA'],
    ['aaa', 'AAA'],
    ['Triple A', 'AAA'],
    ['triple-a', 'AAA'],
    ['AA', 'AA'],
    ['A', 'A'],
    ['a', 'A'],
    ['Single A', 'A'],
    ['TEST', 'TEST'],
    ['Peewee', 'Peewee'],
    ['PEEWEE', 'Peewee'],
    ['Pee Wee', 'Peewee'],
    ['pee-wee', 'Peewee'],
    ['Peewees', 'Peewee'],
  ])('reads division %j as %s', (value, division) => {
    expect(read({ text: body({ division: `Division: ${value}` }) })).toEqual({ ...JANE, division });
  });

  it.each([['Majors'], ['AAAA'], ['U10'], ['B']])('refuses division %j, listing the divisions', (value) => {
    expect(read({ text: body({ division: `Division: ${value}` }) })).toBe(`Division "${value}" is not one of AAA, AA, A, TEST, Peewee`);
  });

  it.each([
    ['2025', '2025'],
    ['fall-2025', 'fall-2025'],
    ['Fall-2025', 'fall-2025'],
    ['spring-2026', 'spring-2026'],
    ['Fall Ball 2025', 'fall-2025'],
    ['fall ball 2025', 'fall-2025'],
    ['Fall 2025', 'fall-2025'],
    ['Spring Ball 2026', 'spring-2026'],
    ['2026 Spring', 'spring-2026'],
    ['2025 Fall Ball', 'fall-2025'],
    ['Autumn 2025', 'fall-2025'],
    ['current', null],
    ['This season', null],
    ['current season', null],
  ])('reads season %j as %j', (value, season) => {
    expect(read({ text: body({ extra: `Season: ${value}` }) })).toEqual({ ...JANE, season });
  });

  it('leaves the season to the recorder (the current one) when the mail names none', () => {
    expect(read({ text: body({}) })).toEqual({ ...JANE, season: null });
  });

  it.each([['next year'], ['2025-2026'], ['Fall']])('refuses season %j', (value) => {
    expect(read({ text: body({ extra: `Season: ${value}` }) })).toBe(`Season "${value}" is not a year (2025) or a season such as Fall Ball 2025`);
  });
});
