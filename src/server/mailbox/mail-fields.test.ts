import { describe, expect, it } from 'vitest';
import {
  DECORATION_MAX_BYTES,
  MAX_MAIL_DOCUMENTS,
  attachmentDocType,
  htmlToText,
  readOwnText,
  readPlayerDetails,
  selectAttachments,
  type MailPartInfo,
  type MailPlayer,
  type MailSummary,
} from './mail-fields';

const KB = 1024;

function part(overrides: Partial<MailPartInfo>): MailPartInfo {
  return { filename: 'scan.pdf', contentType: 'application/pdf', disposition: 'attachment', contentId: null, size: 300 * KB, ...overrides };
}

describe('selectAttachments keeps documents', () => {
  it.each<[string, Partial<MailPartInfo>]>([
    ['a PDF attachment', {}],
    ['a photo attachment', { filename: 'IMG_2041.HEIC', contentType: 'image/heic', size: 2_400 * KB }],
    ['a PDF sent as octet-stream', { filename: 'birth.pdf', contentType: 'application/octet-stream' }],
    ['a Word file, for the pipeline to refuse with its message', { filename: 'waiver.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }],
    ['a text file attached on purpose', { filename: 'notes.txt', contentType: 'text/plain', size: 2 * KB }],
    ['a large inline photo referenced by cid (Apple Mail, phone apps)', { filename: 'IMG_0001.jpeg', contentType: 'image/jpeg', disposition: 'inline', contentId: '<a1@apple>', size: 1_800 * KB }],
    ['a large inline image001.png pasted into Outlook', { filename: 'image001.png', contentType: 'image/png', disposition: 'inline', contentId: '<image001.png@01D>', size: 400 * KB }],
    ['an image with no disposition at all', { filename: 'page1.jpg', contentType: 'image/jpeg', disposition: null, size: 900 * KB }],
    ['a small image attached on purpose with a plain name', { filename: 'waiver.png', contentType: 'image/png', size: 15 * KB }],
    ['an image exactly at the decoration limit', { filename: 'logo.png', contentType: 'image/png', disposition: 'inline', size: DECORATION_MAX_BYTES }],
  ])('keeps %s', (_label, overrides) => {
    const selection = selectAttachments([part(overrides)]);
    expect(selection.documents).toEqual([{ index: 0, filename: overrides.filename ?? 'scan.pdf' }]);
    expect(selection.skipped).toEqual([]);
    expect(selection.refused).toEqual([]);
    expect(selection.error).toBeNull();
  });

  it('names a part without a file name by its position, and makes names safe to show', () => {
    const selection = selectAttachments([
      part({ filename: null }),
      part({ filename: '   ' }),
      part({ filename: '..\\..\\C:\\evil\u202Efdp.exe' }),
      part({ filename: 'Свидетельство о рождении.pdf' }),
    ]);
    expect(selection.documents).toEqual([
      { index: 0, filename: 'attachment-1' },
      { index: 1, filename: 'attachment-2' },
      { index: 2, filename: 'evilfdp.exe' },
      { index: 3, filename: 'Свидетельство о рождении.pdf' },
    ]);
  });
});

describe('selectAttachments skips what is not a document', () => {
  it.each<[string, Partial<MailPartInfo>, string]>([
    ['an attached e-mail', { filename: 'Fwd documents.eml', contentType: 'message/rfc822' }, 'An attached e-mail (.eml), not a document'],
    ['an .eml sent as octet-stream', { filename: 'copy.eml', contentType: 'application/octet-stream' }, 'An attached e-mail (.eml), not a document'],
    ['an Outlook .msg', { filename: 'original.msg', contentType: 'application/vnd.ms-outlook' }, 'An attached e-mail (.eml), not a document'],
    ['a delivery report', { filename: null, contentType: 'message/delivery-status', disposition: null }, 'An attached e-mail (.eml), not a document'],
    ['a calendar invitation', { filename: 'invite.ics', contentType: 'text/calendar; method=REQUEST' }, 'A calendar invitation, not a document'],
    ['a contact card', { filename: 'Mary Doe.vcf', contentType: 'text/x-vcard' }, 'A contact card, not a document'],
    ['an S/MIME signature', { filename: 'smime.p7s', contentType: 'application/pkcs7-signature' }, "The e-mail's digital signature, not a document"],
    ['a PGP signature', { filename: 'signature.asc', contentType: 'application/pgp-signature' }, "The e-mail's digital signature, not a document"],
    ['an extra text part of the body', { filename: null, contentType: 'text/plain; charset=utf-8', disposition: null }, 'Text of the message, not a document'],
    ['an inline HTML part', { filename: null, contentType: 'text/html', disposition: 'inline' }, 'Text of the message, not a document'],
    [
      'a small inline image referenced by cid',
      { filename: 'image001.png', contentType: 'image/png', disposition: 'inline', contentId: '<image001.png@01D>', size: 6 * KB },
      'A small image in the message body (logo or signature), not a document',
    ],
    [
      'a tracking pixel without a name',
      { filename: null, contentType: 'image/gif', disposition: null, size: 43 },
      'A small image in the message body (logo or signature), not a document',
    ],
    ['a small logo attached', { filename: 'CompanyLogo.png', contentType: 'image/png', size: 9 * KB }, 'A logo or signature image, not a document'],
    ['a small Outlook image001.jpg attached', { filename: 'image001.jpg', contentType: 'image/jpeg', size: 12 * KB }, 'A logo or signature image, not a document'],
    ['a small signature image', { filename: 'email-signature.gif', contentType: 'image/gif', size: 4 * KB }, 'A logo or signature image, not a document'],
    ['a social icon', { filename: 'facebook.png', contentType: 'application/octet-stream', size: 2 * KB }, 'A logo or signature image, not a document'],
  ])('skips %s', (_label, overrides, reason) => {
    const selection = selectAttachments([part({}), part(overrides)]);
    expect(selection.documents).toEqual([{ index: 0, filename: 'scan.pdf' }]);
    expect(selection.skipped).toEqual([{ index: 1, reason }]);
    expect(selection.refused).toEqual([]);
  });

  it('refuses winmail.dat and S/MIME-encrypted mail, whose documents are inside where we cannot read them', () => {
    const selection = selectAttachments([
      part({}),
      part({ filename: 'winmail.dat', contentType: 'application/ms-tnef' }),
      part({ filename: 'smime.p7m', contentType: 'application/pkcs7-mime' }),
    ]);
    expect(selection.documents).toEqual([{ index: 0, filename: 'scan.pdf' }]);
    expect(selection.refused).toEqual([
      {
        index: 1,
        filename: 'winmail.dat',
        code: 'WINMAIL_DAT',
        message: 'Outlook packed the attachments into winmail.dat; ask the sender to send them again as ordinary attachments',
      },
      {
        index: 2,
        filename: 'smime.p7m',
        code: 'ENCRYPTED_MAIL',
        message: 'The e-mail is encrypted (smime.p7m) and cannot be read; ask the sender to send it unencrypted',
      },
    ]);
    expect(selection.error).toBeNull();
  });
});

describe('selectAttachments with bad input', () => {
  it('says so when a mail has no attachments', () => {
    expect(selectAttachments([])).toEqual({ documents: [], refused: [], skipped: [], error: 'No attachments found in the e-mail' });
  });

  it('says so when only body text parts came', () => {
    const selection = selectAttachments([part({ filename: null, contentType: 'text/plain', disposition: null })]);
    expect(selection.error).toBe('No attachments found in the e-mail');
  });

  it('says only logos came when the rest was decoration', () => {
    const selection = selectAttachments([
      part({ filename: 'image001.png', contentType: 'image/png', disposition: 'inline', contentId: '<x>', size: 3 * KB }),
      part({ filename: 'invite.ics', contentType: 'text/calendar' }),
    ]);
    expect(selection.documents).toEqual([]);
    expect(selection.error).toBe('No PDF or image attachments found in the e-mail');
  });

  it('explains that an attached e-mail is not opened', () => {
    const selection = selectAttachments([part({ filename: 'documents.eml', contentType: 'message/rfc822' })]);
    expect(selection.error).toBe(
      'No documents found in the e-mail: attached e-mails (.eml) are not opened; ask the sender to attach the documents themselves',
    );
  });

  it('explains a mail whose only attachment is winmail.dat', () => {
    const selection = selectAttachments([part({ filename: 'winmail.dat', contentType: 'application/ms-tnef' })]);
    expect(selection.error).toBe('Outlook packed the attachments into winmail.dat; ask the sender to send them again as ordinary attachments');
  });

  it(`processes the first ${MAX_MAIL_DOCUMENTS} of 30 attachments and refuses the rest by name`, () => {
    const parts = Array.from({ length: 30 }, (_, i) => part({ filename: `page-${i + 1}.jpg`, contentType: 'image/jpeg' }));
    const selection = selectAttachments(parts);
    expect(selection.documents).toHaveLength(12);
    expect(selection.documents[0]).toEqual({ index: 0, filename: 'page-1.jpg' });
    expect(selection.documents[11]).toEqual({ index: 11, filename: 'page-12.jpg' });
    expect(selection.refused).toHaveLength(18);
    expect(selection.refused[0]).toEqual({
      index: 12,
      filename: 'page-13.jpg',
      code: 'TOO_MANY_ATTACHMENTS',
      message: 'Only the first 12 attachments of an e-mail are processed; ask the sender to send this one again',
    });
    expect(selection.refused.map((r) => r.index)).toEqual(Array.from({ length: 18 }, (_, i) => i + 12));
    expect(selection.error).toBeNull();
  });

  it('does not count skipped parts toward the limit', () => {
    const logos = Array.from({ length: 5 }, () => part({ filename: 'image001.png', contentType: 'image/png', disposition: 'inline', size: 2 * KB }));
    const pages = Array.from({ length: 12 }, (_, i) => part({ filename: `p${i}.pdf` }));
    const selection = selectAttachments([...logos, ...pages]);
    expect(selection.documents).toHaveLength(12);
    expect(selection.skipped).toHaveLength(5);
    expect(selection.refused).toEqual([]);
  });
});

const TODAY = '2025-09-01';

function mail(overrides: Partial<MailSummary>): MailSummary {
  return { subject: null, text: null, html: null, fromAddress: 'mary.doe@example.com', ...overrides };
}

/** The player a mail gives, or the error it fails with. */
function read(overrides: Partial<MailSummary>): MailPlayer | string {
  const result = readPlayerDetails(mail(overrides), { today: TODAY });
  return result.ok ? result.player : result.error;
}

/** A body with everything but the line under test. */
const REST = { name: 'Player: Jane Doe', birthDate: 'DOB: 2015-03-02', division: 'Division: AA' };
function body(lines: Partial<typeof REST> & { extra?: string }): string {
  const { extra, ...given } = lines;
  return [...Object.values({ ...REST, ...given }), ...(extra ? [extra] : [])].join('\n');
}

const JANE: MailPlayer = {
  firstName: 'Jane',
  lastName: 'Doe',
  birthDate: '2015-03-02',
  division: 'AA',
  season: null,
  guardianName: null,
  guardianEmail: 'mary.doe@example.com',
  guardianPhone: null,
};

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

describe('readPlayerDetails reads dates of birth', () => {
  it.each([
    ['2015-03-02', '2015-03-02'],
    ['2015/03/02', '2015-03-02'],
    ['2015-3-2', '2015-03-02'],
    ['03/02/2015', '2015-03-02'],
    ['3/2/2015', '2015-03-02'],
    ['03-02-2015', '2015-03-02'],
    ['12/31/2014', '2014-12-31'],
    ['2 March 2015', '2015-03-02'],
    ['02 Mar 2015', '2015-03-02'],
    ['2nd March 2015', '2015-03-02'],
    ['2nd of March, 2015', '2015-03-02'],
    ['March 2, 2015', '2015-03-02'],
    ['March 2 2015', '2015-03-02'],
    ['Mar. 2nd, 2015', '2015-03-02'],
    ['march 2, 2015', '2015-03-02'],
    ['Sept 9, 2016', '2016-09-09'],
    ['September 9, 2016', '2016-09-09'],
    ['Monday, March 2, 2015', '2015-03-02'],
    ['03/02/2015 (age 10)', '2015-03-02'],
    ['2016-02-29', '2016-02-29'],
    ['2025-09-01', '2025-09-01'],
  ])('reads %j as %s', (value, birthDate) => {
    expect(read({ text: body({ birthDate: `DOB: ${value}` }) })).toEqual({ ...JANE, birthDate });
  });

  it.each([
    ['2015-02-30', 'Date of birth "2015-02-30" is not a real date'],
    ['2015-13-01', 'Date of birth "2015-13-01" is not a real date'],
    ['2015-02-29', 'Date of birth "2015-02-29" is not a real date'],
    ['25/03/2015', 'Date of birth "25/03/2015" is not a real date (dates are read as MM/DD/YYYY)'],
    ['02/30/2015', 'Date of birth "02/30/2015" is not a real date (dates are read as MM/DD/YYYY)'],
    ['31 April 2015', 'Date of birth "31 April 2015" is not a real date'],
    ['February 30, 2015', 'Date of birth "February 30, 2015" is not a real date'],
    ['2025-09-02', 'Date of birth "2025-09-02" is in the future'],
    ['1899-12-31', 'Date of birth "1899-12-31" is before 1900'],
    ['3/2/15', 'Date of birth "3/2/15" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY'],
    ['02.03.2015', 'Date of birth "02.03.2015" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY'],
    ['2015', 'Date of birth "2015" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY'],
    ['next spring', 'Date of birth "next spring" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY'],
    ['Marchember 2, 2015', 'Date of birth "Marchember 2, 2015" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY'],
  ])('refuses %j', (value, error) => {
    expect(read({ text: body({ birthDate: `DOB: ${value}` }) })).toBe(error);
  });

  it('bounds the date by today, which defaults to the clock', () => {
    const result = readPlayerDetails(mail({ text: body({ birthDate: 'DOB: 2999-01-01' }) }));
    expect(result).toMatchObject({ ok: false, error: 'Date of birth "2999-01-01" is in the future' });
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

describe('readPlayerDetails reads only the sender’s own text of a reply', () => {
  const QUOTED = '> Player: John Smith\n> DOB: 2014-01-01\n> Division: AAA';

  it('ignores quoted lines and keeps reading after them', () => {
    expect(read({ text: `${QUOTED}\n\n${body({})}` })).toEqual(JANE);
    expect(read({ text: `Player: Jane Doe\n>> Division: AAA\nDOB: 2015-03-02\nDivision: AA` })).toEqual(JANE);
  });

  it('does not fall back to the quoted request when the reply lacks the details', () => {
    const text = `Here you go.\n\nOn Tue, Mar 3, 2025 at 10:00 AM Clearbase League <league@example.org> wrote:\n${QUOTED}`;
    expect(read({ subject: 'Re: documents', text })).toBe('No player name, date of birth or division found in the e-mail');
  });

  it.each([
    ['Gmail', 'On Tue, Mar 3, 2025 at 10:00 AM League <league@example.org> wrote:\n\nPlayer: John Smith\nDivision: AAA'],
    ['Gmail, wrapped', 'On Tue, Mar 3, 2025 at 10:00 AM Clearbase League Registration <\nleague@example.org> wrote:\nPlayer: John Smith\nDivision: AAA'],
    ['Outlook', '________________________________\nFrom: League <league@example.org>\nSent: Tuesday, March 3, 2025 10:00 AM\nTo: Mary\nSubject: Documents\n\nPlayer: John Smith\nDivision: AAA'],
    ['Outlook classic', '-----Original Message-----\nFrom: League\nSent: Tuesday\n\nPlayer: John Smith\nDivision: AAA'],
    ['German', 'Am 03.03.2025 um 10:00 schrieb League <league@example.org>:\nPlayer: John Smith\nDivision: AAA'],
    ['French', 'Le mar. 3 mars 2025 à 10:00, League <league@example.org> a écrit :\nPlayer: John Smith\nDivision: AAA'],
  ])('stops at a %s reply header', (_client, history) => {
    expect(read({ subject: 'Re: Registration', text: `${body({})}\n\n${history}` })).toEqual(JANE);
  });

  it('does not take "On Monday … wrote:" without a date for a reply header', () => {
    expect(read({ text: `On Monday my husband wrote:\n${body({})}` })).toEqual(JANE);
  });

  it('reads a forwarded message, which the sender is passing on', () => {
    const gmail = `FYI\n\n---------- Forwarded message ---------\nFrom: Mary Doe <mary.doe@example.com>\nDate: Tue, Mar 3, 2025 at 10:00 AM\nSubject: Documents\nTo: <league@example.org>\n\n${body({})}`;
    expect(read({ subject: 'Fwd: Documents', text: gmail })).toEqual(JANE);
    const apple = `Begin forwarded message:\n\nFrom: Mary Doe <mary.doe@example.com>\nSubject: Documents\nDate: March 3, 2025 at 10:00:00 AM EST\nTo: league@example.org\n\n${body({})}`;
    expect(read({ subject: 'Documents', text: apple })).toEqual(JANE);
    const outlook = `________________________________\nFrom: Mary Doe\nSent: Tuesday, March 3, 2025 10:00 AM\nTo: League\nSubject: Documents\n\n${body({})}`;
    expect(read({ subject: 'FW: Documents', text: outlook })).toEqual(JANE);
    const classic = `-----Original Message-----\nFrom: Mary Doe\nSent: Tuesday\nTo: League\n\n${body({})}`;
    expect(read({ subject: 'FW: Documents', text: classic })).toEqual(JANE);
  });

  it('stops at the quoted history inside a forwarded message', () => {
    const text = `---------- Forwarded message ---------\nFrom: Mary Doe <mary.doe@example.com>\nDate: Tue, Mar 3, 2025\n\n${body({})}\n\nOn Mon, Mar 2, 2025 at 9:00 AM League <league@example.org> wrote:\nDivision: AAA`;
    expect(read({ subject: 'Fwd: Documents', text })).toEqual(JANE);
  });

  it('leaves out the signature after "-- "', () => {
    expect(read({ text: `Player: Jane Doe\nDOB: 2015-03-02\n\n-- \nMary Doe\nDivision: Sales` })).toBe('No division found in the e-mail');
    expect(read({ text: `${body({})}\n-- \nMary Doe, Acme Corp\nDivision: Sales` })).toEqual(JANE);
  });
});

describe('readPlayerDetails reads HTML-only bodies', () => {
  it('reads paragraphs, line breaks and entities', () => {
    const html = '<html><head><style>p { color: red }</style><title>Player: Nope</title></head><body><p>Hi!</p><p>Player: Jos&eacute; Garc&iacute;a<br>DOB: 03/02/2015<br/>Division:&nbsp;AA</p><!-- Division: AAA --><script>var x = "Division: AAA";</script></body></html>';
    expect(read({ html })).toEqual({ ...JANE, firstName: 'José', lastName: 'García' });
  });

  it('reads a table of labels and values', () => {
    const html = '<table><tr><td><b>Player:</b></td><td>Jane Doe</td></tr><tr><th>Date of Birth:</th><td>March 2, 2015</td></tr><tr><td>Division:</td><td>AA</td></tr></table>';
    expect(read({ html })).toEqual(JANE);
  });

  it('reads a form notification with a paragraph per label and per value', () => {
    const html = '<p><strong>Player Name</strong>:</p><p>Jane Doe</p><p><strong>Date of Birth:</strong></p><p>03/02/2015</p><p>Division:</p><p>AA</p>';
    expect(read({ html })).toEqual(JANE);
  });

  it('reads names written with numeric entities in other scripts', () => {
    const html = '<div>Player: &#1048;&#1074;&#1072;&#1085; &#x41F;&#x435;&#x442;&#x440;&#x43E;&#x432;</div><div>DOB: 2015-03-02</div><div>Division: AA</div>';
    expect(read({ html })).toEqual({ ...JANE, firstName: 'Иван', lastName: 'Петров' });
  });

  it('drops quoted replies in <blockquote>, nested or not', () => {
    const html = `<div>${body({}).split('\n').join('<br>')}</div><blockquote type="cite">Division: AAA<blockquote>Player: John Smith</blockquote>Season: 2020</blockquote>`;
    expect(read({ html })).toEqual(JANE);
  });

  it('stops at an Outlook reply header in HTML', () => {
    const html = `<div>${body({}).split('\n').join('<br>')}</div><hr><div id="divRplyFwdMsg"><b>From:</b> League<br><b>Sent:</b> Tuesday<br></div><div>Division: AAA</div>`;
    expect(read({ subject: 'RE: Registration', html })).toEqual(JANE);
  });

  it('prefers the plain-text body when there is one', () => {
    expect(read({ text: body({}), html: '<p>Player: John Smith</p>' })).toEqual(JANE);
    expect(read({ text: '  \n ', html: `<p>${body({}).split('\n').join('</p><p>')}</p>` })).toEqual(JANE);
  });

  it('turns HTML into the lines a reader sees', () => {
    expect(htmlToText('<div>a<br>b</div>\n  <p>c &amp; d &lt;e&gt; &Ntilde;&ntilde; &bogus; &#0; &#xD800;</p>')).toBe('\na\nb\n \nc & d <e> Ññ &bogus;  \n');
  });
});

describe('readOwnText', () => {
  it('keeps the sender’s lines and drops the rest', () => {
    const text = 'Line 1\r\n> quoted\r\nLine 2\u00A0end\r\n\r\nOn Tue, Mar 3, 2025, League wrote:\r\nold';
    expect(readOwnText({ subject: null, text, html: null })).toBe('Line 1\nLine 2 end\n');
  });

  it('stops reading a huge body at 100,000 characters', () => {
    const text = `${'Hello there. '.repeat(10_000)}\nDivision: AA`;
    expect(readOwnText({ subject: null, text, html: null })).not.toContain('Division');
  });
});

describe('attachmentDocType', () => {
  it.each<[string, Partial<MailSummary>, number, ReturnType<typeof attachmentDocType>]>([
    ['birth_certificate.pdf', { subject: 'Medical form' }, 3, { docType: 'birth_certificate', from: 'filename' }],
    ['Signed Waiver.jpg', {}, 1, { docType: 'waiver', from: 'filename' }],
    ['IMG_2041.jpg', { subject: 'Birth certificate for Jane Doe' }, 1, { docType: 'birth_certificate', from: 'subject' }],
    ['IMG_2041.jpg', { subject: 'Re: Fwd: proof of residency' }, 1, { docType: 'residency', from: 'subject' }],
    ['scan0001.pdf', { subject: 'Registration - Jane Doe - AA', text: 'Attached is the signed liability waiver.' }, 1, { docType: 'waiver', from: 'body' }],
    ['scan0001.pdf', { subject: 'Documents', html: '<p>Here is her sports physical.</p>' }, 1, { docType: 'medical', from: 'body' }],
    ['IMG_2041.jpg', { subject: 'Birth certificate for Jane Doe' }, 2, { docType: null, from: null }],
    ['IMG_2041.jpg', { text: 'Attached: birth certificate and medical form' }, 1, { docType: null, from: null }],
    ['IMG_2041.jpg', { subject: 'Documents for Jane Doe', text: 'Player: Jane Doe\nDate of birth: 2015-03-02' }, 1, { docType: null, from: null }],
    ['IMG_2041.jpg', { text: 'Here it is.\n\nOn Tue, Mar 3, 2025 League wrote:\n> Please send the medical form' }, 1, { docType: null, from: null }],
    ['IMG_2041.jpg', {}, 1, { docType: null, from: null }],
    ['birth certificate and waiver.pdf', { subject: 'Waiver' }, 1, { docType: 'waiver', from: 'subject' }],
  ])('types %j with %j and %i documents', (filename, overrides, count, expected) => {
    expect(attachmentDocType(filename, mail(overrides), count)).toEqual(expected);
  });
});
