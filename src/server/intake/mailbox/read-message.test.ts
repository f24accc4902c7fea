import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildMail, buildUuencodedMail, uuencode } from '../../../../tests/support/mail';
import { makePdf } from '../../../../tests/support/multipart';
import { contentSha256, identifyMessage, MailTooLargeError } from './read-message';

const MB = 1_048_576;
const PARENT = 'Mary Doe <mary.doe@example.com>';
const BODY = 'Player: Jane Doe\nDOB: 2015-03-02\nDivision: AA';
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
/** As the mailbox streams a message: in chunks, not whole. */
const chunks = (raw: Buffer, size = 65_536) => Array.from({ length: Math.ceil(raw.length / size) }, (_, i) => raw.subarray(i * size, (i + 1) * size));
const identify = (raw: Buffer, max = 10 * MB) => identifyMessage(Readable.from(chunks(raw)), max);

describe('identifyMessage: what makes two mails the same mail', () => {
  const pdf = makePdf('birth certificate of Jane', 4_000);
  const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5_000, 7)]);
  const mail = (overrides: { subject?: string; messageId?: string; date?: Date; text?: string; attachments?: Array<{ filename: string; content: Buffer }> } = {}) =>
    buildMail({
      from: PARENT,
      to: 'registrations@league.example',
      subject: overrides.subject ?? 'Registration documents',
      text: overrides.text ?? BODY,
      messageId: overrides.messageId ?? '<same@example.com>',
      date: overrides.date ?? new Date('2025-09-01T10:00:00Z'),
      attachments: overrides.attachments ?? [
        { filename: 'birth.pdf', content: pdf },
        { filename: 'photo.jpg', content: photo },
      ],
    });

  it('is its subject and its attachments\' SHA-256s, in order', async () => {
    const identity = await identify(await mail());
    expect(identity.messageId).toBe('<same@example.com>');
    expect(identity.contentSha256).toBe(contentSha256('Registration documents', [sha(pdf), sha(photo)]));
  });

  it('stays the same for a copy delivered again with other headers, another boundary and another body footer', async () => {
    const first = await mail();
    const again = Buffer.concat([
      Buffer.from('Received: from relay.example.net by mx.league.example; Tue, 02 Sep 2025 08:00:00 +0000\r\nX-Forwarded-For: coach@example.org\r\n'),
      await mail({ date: new Date('2025-09-02T08:00:00Z'), text: `${BODY}\n\n-- \nSent through the league list` }),
    ]);
    const [a, b] = [await identify(first), await identify(again)];
    expect(b.rawSha256).not.toBe(a.rawSha256);
    expect(b.contentSha256).toBe(a.contentSha256);
  });

  it('differs for another mail reusing the Message-ID: other files, files in another order, another subject', async () => {
    const base = (await identify(await mail())).contentSha256;
    const others = [
      await mail({ attachments: [{ filename: 'birth.pdf', content: makePdf('birth certificate of Tom', 4_000) }] }),
      await mail({ attachments: [{ filename: 'photo.jpg', content: photo }, { filename: 'birth.pdf', content: pdf }] }),
      await mail({ subject: 'Registration documents for Tom' }),
    ];
    for (const other of others) expect((await identify(other)).contentSha256).not.toBe(base);
  });

  it('reads a uuencoded part as the file it holds: the same content as the file sent base64', async () => {
    const uu = buildUuencodedMail({
      from: PARENT,
      to: 'registrations@league.example',
      subject: 'Scan',
      text: BODY,
      messageId: '<uu@example.com>',
      file: { name: 'scan.pdf', beginName: 'scan.pdf', content: pdf },
    });
    const base64 = await buildMail({ from: PARENT, to: 'x@example.org', subject: 'Scan', text: BODY, messageId: '<b64@example.com>', attachments: [{ filename: 'scan.pdf', content: pdf }] });
    expect((await identify(uu)).contentSha256).toBe((await identify(base64)).contentSha256);
    expect((await identify(uu)).contentSha256).toBe(contentSha256('Scan', [sha(pdf)]));
  });

  it('reads a begin … end block in the text as an attachment of its own', async () => {
    const inText = await buildMail({ from: PARENT, to: 'x@example.org', subject: 'Scan', text: `${BODY}\n\n${uuencode(pdf, 'scan.pdf')}\nThanks`, messageId: '<t@example.com>' });
    expect((await identify(inText)).contentSha256).toBe(contentSha256('Scan', [sha(pdf)]));
  });

  it('says a mail is too large with what its headers said, the same way however its bytes arrive', async () => {
    const big = await mail({ attachments: [{ filename: 'big.pdf', content: makePdf('big', 3 * MB) }] });
    const failures = await Promise.all([
      identifyMessage(Readable.from([big]), MB).catch((e: unknown) => e),
      identifyMessage(Readable.from(chunks(big, 10_000)), MB).catch((e: unknown) => e),
    ]);
    for (const failure of failures) expect(failure).toBeInstanceOf(MailTooLargeError);
    const [a, b] = failures as MailTooLargeError[];
    expect(a?.headers).toMatchObject({ messageId: '<same@example.com>', subject: 'Registration documents', fromAddress: 'mary.doe@example.com' });
    expect(a?.headers.contentSha256).toBe(b?.headers.contentSha256);
  });
});
