import type { TDocType } from '../../../contract';
import { detectDocType } from '../../files';
import { bareSubject } from './mail-subject';
import { readOwnText, type MailSummary } from './mail-text';

export type AttachmentDocType = { docType: TDocType | null; from: 'filename' | 'subject' | 'body' | null };

/**
 * Which document an attachment is: from its file name first, then the subject (without Re:/Fwd:), then
 * the sender's own text (readOwnText), all with the pipeline's detectDocType. The subject and body
 * describe the whole mail, so they only speak for an attachment when it is the mail's only document
 * (`documentCount`: the documents selectAttachments kept); with more, null leaves it for review.
 */
export function attachmentDocType(filename: string, mail: MailSummary, documentCount: number): AttachmentDocType {
  const byName = detectDocType({ filename });
  if (byName.docType) return { docType: byName.docType, from: 'filename' };
  if (documentCount !== 1) return { docType: null, from: null };
  const subject = bareSubject(mail.subject);
  const bySubject = detectDocType({ text: subject });
  if (bySubject.docType) return { docType: bySubject.docType, from: 'subject' };
  const byBody = detectDocType({ text: readOwnText(mail) });
  if (byBody.docType) return { docType: byBody.docType, from: 'body' };
  return { docType: null, from: null };
}
