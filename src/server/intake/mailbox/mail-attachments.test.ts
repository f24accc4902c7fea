import { describe, expect, it } from 'vitest';
import { DECORATION_MAX_BYTES, LOGO_MAX_BYTES, LOGO_MAX_SIDE_PX, MAX_MAIL_DOCUMENTS, PAGE_MIN_BYTES, PAGE_MIN_SIDE_PX, selectAttachments, type MailPartInfo } from './mail-attachments';

const KB = 1024;

function part(overrides: Partial<MailPartInfo>): MailPartInfo {
  return { filename: 'scan.pdf', contentType: 'application/pdf', disposition: 'attachment', contentId: null, size: 300 * KB, dimensions: null, ...overrides };
}

describe('selectAttachments keeps documents', () => {
  it.each<[string, Partial<MailPartInfo>]>([
    ['a PDF attachment', {}],
    ['a photo attachment', { filename: 'IMG_2041.HEIC', contentType: 'image/heic', size: 2_400 * KB }],
    ['a PDF sent as octet-stream', { filename: 'birth.pdf', contentType: 'application/octet-stream' }],
    ['a Word file, for the pipeline to refuse with its message', { filename: 'waiver.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }],
    ['a text file attached on purpose', { filename: 'notes.txt', contentType: 'text/plain', size: 2 * KB }],
    ['a large inline photo with a Content-ID the body does not show (Apple Mail, phone apps)', { filename: 'IMG_0001.jpeg', contentType: 'image/jpeg', disposition: 'inline', contentId: '<a1@apple>', size: 1_800 * KB }],
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

describe('selectAttachments tells images of the message body from documents', () => {
  const html = (...ids: string[]) => `<p>Hi!</p>${ids.map((id) => `<img src="cid:${id}" width="120">`).join('')}<p>Mary</p>`;

  it('skips images the HTML body shows by cid: newsletter art and signature logos, even large ones', () => {
    const selection = selectAttachments(
      [
        part({}),
        part({ filename: 'banner.jpg', contentType: 'image/jpeg', disposition: 'inline', contentId: '<banner@news>', size: 180 * KB, dimensions: { width: 1200, height: 400 } }),
        part({ filename: 'team.png', contentType: 'image/png', disposition: 'inline', contentId: 'team.png@01DA', size: 60 * KB, dimensions: { width: 600, height: 600 } }),
        part({ filename: 'art.heic', contentType: 'image/heic', disposition: 'inline', contentId: '<art@x>', size: PAGE_MIN_BYTES - 1, dimensions: null }),
      ],
      { html: `${html('banner@news', 'art@x')}<div style="background:url(cid:TEAM.png%4001DA)"></div>` },
    );
    expect(selection.documents).toEqual([{ index: 0, filename: 'scan.pdf' }]);
    expect(selection.skipped.map((s) => s.index)).toEqual([1, 2, 3]);
    expect(new Set(selection.skipped.map((s) => s.reason))).toEqual(new Set(['An image shown in the message body (newsletter art, logo or signature), not a document']));
    expect(selection.refused).toEqual([]);
  });

  it('keeps a page-sized photo pasted into the body, though the body shows it by cid', () => {
    const selection = selectAttachments(
      [
        part({ filename: 'image0.jpeg', contentType: 'image/jpeg', disposition: 'inline', contentId: '<ii_m1>', size: 2_100 * KB, dimensions: { width: 3024, height: 4032 } }),
        part({ filename: 'scan.png', contentType: 'image/png', disposition: 'inline', contentId: '<ii_m2>', size: 900 * KB, dimensions: { width: PAGE_MIN_SIDE_PX, height: 1650 } }),
        part({ filename: 'IMG_1.HEIC', contentType: 'image/heic', disposition: 'inline', contentId: '<ii_m3>', size: PAGE_MIN_BYTES, dimensions: null }),
      ],
      { html: html('ii_m1', 'ii_m2', 'ii_m3') },
    );
    expect(selection.documents.map((d) => d.filename)).toEqual(['image0.jpeg', 'scan.png', 'IMG_1.HEIC']);
    expect(selection.skipped).toEqual([]);
  });

  it('keeps a photo attached inline that the body does not show (Apple Mail), whatever other images the body shows', () => {
    const selection = selectAttachments(
      [
        part({ filename: 'IMG_2041.jpeg', contentType: 'image/jpeg', disposition: 'inline', contentId: '<2F1A@apple>', size: 1_400 * KB, dimensions: { width: 3024, height: 4032 } }),
        part({ filename: 'logo.png', contentType: 'image/png', disposition: 'inline', contentId: '<logo@sig>', size: 30 * KB, dimensions: { width: 300, height: 90 } }),
      ],
      { html: html('logo@sig') },
    );
    expect(selection.documents).toEqual([{ index: 0, filename: 'IMG_2041.jpeg' }]);
    expect(selection.skipped.map((s) => s.index)).toEqual([1]);
  });

  it('skips a signature logo by its size and header, attached or inline, whatever its name', () => {
    const logo = { contentType: 'image/png', size: LOGO_MAX_BYTES - 1, dimensions: { width: LOGO_MAX_SIDE_PX, height: 60 } };
    const selection = selectAttachments([part({}), part({ ...logo, filename: 'acme.png' }), part({ ...logo, filename: 'x.png', disposition: 'inline', contentId: '<x>' })]);
    expect(selection.skipped).toEqual([
      { index: 1, reason: 'A logo or signature image, not a document' },
      { index: 2, reason: 'A logo or signature image, not a document' },
    ]);
    expect(selection.documents).toEqual([{ index: 0, filename: 'scan.pdf' }]);
  });

  it.each<[string, Partial<MailPartInfo>]>([
    ['at the byte limit', { size: LOGO_MAX_BYTES, dimensions: { width: 150, height: 50 } }],
    ['wider than a logo', { size: 8 * KB, dimensions: { width: LOGO_MAX_SIDE_PX + 1, height: 50 } }],
    ['taller than a logo', { size: 8 * KB, dimensions: { width: 50, height: 900 } }],
    ['whose header cannot be read', { size: 8 * KB, dimensions: null }],
  ])('keeps a small attached image %s (the logo rule needs both)', (_label, overrides) => {
    const selection = selectAttachments([part({ filename: 'waiver.jpg', contentType: 'image/jpeg', ...overrides })]);
    expect(selection.documents).toEqual([{ index: 0, filename: 'waiver.jpg' }]);
  });

  it('does not count skipped images as attachments or refusals: a mail of body images only has no documents', () => {
    const selection = selectAttachments(
      [part({ filename: 'banner.jpg', contentType: 'image/jpeg', disposition: 'inline', contentId: '<b>', size: 200 * KB, dimensions: { width: 640, height: 320 } })],
      { html: html('b') },
    );
    expect(selection).toEqual({
      documents: [],
      refused: [],
      skipped: [{ index: 0, reason: 'An image shown in the message body (newsletter art, logo or signature), not a document' }],
      error: 'No PDF or image attachments found in the e-mail',
    });
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
