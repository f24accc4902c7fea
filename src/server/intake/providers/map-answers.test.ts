import { describe, expect, it } from 'vitest';
import { mapAnswers, normalizeDate, normalizeLabel, splitFullName } from './map-answers';
import type { ProviderAnswer } from './provider';

const text = (key: string, label: string, value: string | null): ProviderAnswer => ({ key, label, value, files: [] });
const upload = (key: string, label: string, ...names: string[]): ProviderAnswer => ({
  key,
  label,
  value: null,
  files: names.map((filename) => ({ kind: 'url', url: `https://files.example/${filename}`, filename })),
});

describe('normalizeLabel', () => {
  it('compares labels without case, spaces, punctuation, accents or a question number', () => {
    const wanted = normalizeLabel('Parent/guardian e-mail');
    for (const label of ['parent guardian email', 'Parent / Guardian E-mail:', 'PARENT-GUARDIAN EMAIL *', '4. Parent/guardian e-mail', 'Parént/guardian e‑mail']) {
      expect(normalizeLabel(label), label).toBe(wanted);
    }
    expect(normalizeLabel('Parent/guardian phone')).not.toBe(wanted);
    expect(normalizeLabel('Guardian e-mail')).not.toBe(wanted);
  });
});

describe('normalizeDate', () => {
  it.each([
    ['2015-03-05', '2015-03-05'],
    ['2015-3-5', '2015-03-05'],
    ['2015/03/05', '2015-03-05'],
    ['2015-03-05T00:00:00Z', '2015-03-05'],
    ['2015-03-05T00:00:00.000+02:00', '2015-03-05'],
    ['03/05/2015', '2015-03-05'],
    ['3/5/2015', '2015-03-05'],
    ['25/03/2015', '2015-03-25'],
    ['12/31/2014', '2014-12-31'],
    ['25-03-2015', '2015-03-25'],
    ['03-25-2015', '2015-03-25'],
    ['25.03.2015', '2015-03-25'],
    ['05-05-2015', '2015-05-05'],
    ['March 5, 2015', '2015-03-05'],
    ['Mar 05, 2015', '2015-03-05'],
    ['mar. 5th 2015', '2015-03-05'],
    ['Sept 9, 2016', '2016-09-09'],
    ['5 March 2015', '2015-03-05'],
  ])('reads %j as %s', (value, date) => {
    expect(normalizeDate(value)).toBe(date);
  });

  it.each(['05-03-2015', '05.03.2015', 'Ma 5, 2015', 'Smarch 5, 2015', 'next Tuesday', '2015', '15-03-05', ''])(
    'leaves %j unread rather than guess',
    (value) => {
      expect(normalizeDate(value)).toBeUndefined();
    },
  );
});

describe('splitFullName', () => {
  it('takes the last word as the last name', () => {
    expect(splitFullName('  Mary Ann   Smith ')).toEqual({ first: 'Mary Ann', last: 'Smith' });
    expect(splitFullName('Mae Jemison')).toEqual({ first: 'Mae', last: 'Jemison' });
    expect(splitFullName('Cher')).toEqual({ first: 'Cher', last: undefined });
    expect(splitFullName('   ')).toBeUndefined();
  });
});

describe('mapAnswers', () => {
  const answers: ProviderAnswer[] = [
    text('q1', 'Player first name', 'Mae'),
    text('q2', 'Player last name:', 'Jemison'),
    text('q3', 'Player date of birth', 'October 17, 2015'),
    text('q4', 'DIVISION', 'aa'),
    text('q5', 'Parent / Guardian name', 'Dorothy Jemison'),
    text('q6', 'Parent/guardian E-mail', 'family@example.org'),
    text('q7', 'parent guardian phone', '+1 555 0100'),
    text('q8', 'Favourite colour', 'green'),
    upload('q9', 'Birth certificate', 'birth.pdf'),
    upload('q10', 'Proof of residency', 'lease.pdf', 'bill.pdf'),
    upload('q11', 'Anything else?', 'photo.jpg'),
  ];

  it('finds each field by its default label and each file by its question', () => {
    const mapped = mapAnswers(answers, {});
    expect(mapped.fields).toEqual({
      playerFirstName: 'Mae',
      playerLastName: 'Jemison',
      playerBirthDate: '2015-10-17',
      division: 'AA',
      guardianName: 'Dorothy Jemison',
      guardianEmail: 'family@example.org',
      guardianPhone: '+1 555 0100',
    });
    expect(mapped.files.map((f) => [f.filename, f.declaredType])).toEqual([
      ['birth.pdf', 'birth_certificate'],
      ['lease.pdf', 'residency'],
      ['bill.pdf', 'residency'],
      ['photo.jpg', null],
    ]);
  });

  it('takes a field from the question the saved mapping names before any label', () => {
    const mapped = mapAnswers([...answers, text('q12', 'Child born on', '2016-01-02'), upload('q13', 'Doctor form', 'medical.pdf')], {
      playerBirthDate: 'q12',
      guardianPhone: 'q8',
      medical: 'q13',
      waiver: 'q9',
    });
    expect(mapped.fields.playerBirthDate).toBe('2016-01-02');
    expect(mapped.fields.guardianPhone).toBe('green');
    expect(mapped.files.find((f) => f.filename === 'medical.pdf')?.declaredType).toBe('medical');
    // Mapped to the waiver, the birth certificate question is the waiver's now, and it counts once.
    expect(mapped.files.filter((f) => f.filename === 'birth.pdf').map((f) => f.declaredType)).toEqual(['waiver']);
  });

  it('leaves out a field whose mapped question is not in the delivery, and blank answers', () => {
    const mapped = mapAnswers([text('a', 'Division', '   '), text('b', 'Player first name', 'Mae')], { playerFirstName: 'gone' });
    expect(mapped.fields).toEqual({});
  });

  it('splits a single player name, the last word being the last name', () => {
    const mapped = mapAnswers([text('n', 'Player Name', 'Mary Ann Smith'), text('d', 'Player date of birth', '25-03-2015')], {});
    expect(mapped.fields).toEqual({ playerFirstName: 'Mary Ann', playerLastName: 'Smith', playerBirthDate: '2015-03-25' });
  });

  it('keeps separate first and last names over a single name, and passes an uncertain date on as written', () => {
    const mapped = mapAnswers(
      [text('n', 'Player name', 'Someone Else'), text('f', 'Player first name', 'Mae'), text('d', 'Player date of birth', '05-03-2015')],
      {},
    );
    expect(mapped.fields).toEqual({ playerFirstName: 'Mae', playerLastName: 'Else', playerBirthDate: '05-03-2015' });
  });
});
