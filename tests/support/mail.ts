import MailComposer from 'nodemailer/lib/mail-composer';

export type MailAttachment = {
  /** Shown as the attachment's name; none gives a part without a filename. */
  filename?: string;
  content: Buffer;
  /** Derived from the filename when absent. */
  contentType?: string;
  /** Content-ID: makes the part inline (an embedded image) unless contentDisposition says otherwise. */
  cid?: string;
  contentDisposition?: 'attachment' | 'inline';
};

export type MailSpec = {
  from: string;
  to: string | string[];
  subject: string;
  text?: string;
  html?: string;
  attachments?: MailAttachment[];
  /** `<id@host>`; generated when absent. */
  messageId?: string;
  /** Defaults to now. */
  date?: Date;
};

/** A raw RFC 822 message, as a mail client would send it, built by nodemailer's MailComposer. */
export function buildMail(spec: MailSpec): Promise<Buffer> {
  const composer = new MailComposer({
    from: spec.from,
    to: spec.to,
    subject: spec.subject,
    text: spec.text,
    html: spec.html,
    messageId: spec.messageId,
    date: spec.date,
    attachments: spec.attachments?.map((attachment) => ({
      // nodemailer invents a name for a part without one unless told `false`.
      filename: attachment.filename ?? false,
      content: attachment.content,
      contentType: attachment.contentType,
      cid: attachment.cid,
      contentDisposition: attachment.contentDisposition,
    })),
  });
  return composer.compile().build();
}

/**
 * `content` uuencoded as `uuencode` writes it: `begin 644 <name>`, lines of 45 bytes, a backtick for 0, the
 * zero-length line and `end`. Lines end in `\n`; a mail composer turns them into CRLF.
 */
export function uuencode(content: Buffer, name: string, mode = '644'): string {
  const char = (value: number) => (value === 0 ? '`' : String.fromCharCode(0x20 + value));
  const lines = [`begin ${mode} ${name}`];
  for (let start = 0; start < content.length; start += 45) {
    const chunk = content.subarray(start, start + 45);
    let line = char(chunk.length);
    for (let i = 0; i < chunk.length; i += 3) {
      const a = chunk[i] ?? 0;
      const b = chunk[i + 1] ?? 0;
      const c = chunk[i + 2] ?? 0;
      line += char(a >> 2) + char(((a & 0x03) << 4) | (b >> 4)) + char(((b & 0x0f) << 2) | (c >> 6)) + char(c & 0x3f);
    }
    lines.push(line);
  }
  lines.push('`', 'end');
  return `${lines.join('\n')}\n`;
}

/**
 * A raw message whose attachment is a uuencoded MIME part (`Content-Transfer-Encoding: x-uuencode`), as old
 * mail programs and some scanners send it; MailComposer cannot write one. `name` goes on the part unless null
 * (then only the `begin` line names the file).
 */
export function buildUuencodedMail(spec: {
  from: string;
  to: string;
  subject: string;
  text: string;
  messageId: string;
  file: { name: string | null; beginName: string; content: Buffer; contentType?: string; transferEncoding?: string };
  extraHeaders?: string[];
}): Buffer {
  const boundary = `uu-${spec.messageId.replace(/[^a-z0-9]/gi, '')}`;
  const { file } = spec;
  const named = file.name === null ? '' : `; name="${file.name}"`;
  const lines = [
    ...(spec.extraHeaders ?? []),
    `From: ${spec.from}`,
    `To: ${spec.to}`,
    `Subject: ${spec.subject}`,
    `Message-ID: ${spec.messageId}`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    spec.text,
    '',
    `--${boundary}`,
    `Content-Type: ${file.contentType ?? 'application/octet-stream'}${named}`,
    `Content-Transfer-Encoding: ${file.transferEncoding ?? 'x-uuencode'}`,
    `Content-Disposition: attachment${file.name === null ? '' : `; filename="${file.name}"`}`,
    '',
    uuencode(file.content, file.beginName).trimEnd(),
    '',
    `--${boundary}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}
