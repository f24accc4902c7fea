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
