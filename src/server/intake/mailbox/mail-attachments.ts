/** Which parts of a parsed e-mail are documents to process, which are refused, and which are not documents at all. */
import { sanitizeOriginalFilename } from '../../files';
import type { ImageSize } from './mail-image-size';

/** One MIME part as mailparser lists it among `attachments` (size in decoded bytes). */
export type MailPartInfo = {
  filename: string | null;
  contentType: string;
  disposition: 'attachment' | 'inline' | null;
  contentId: string | null;
  size: number;
  /** Width and height as an image's header states them; null for anything else, or a header that could not be read. */
  dimensions: ImageSize | null;
};

/** As many files as the form webhook takes in one submission: four documents, a few pages each. */
export const MAX_MAIL_DOCUMENTS = 12;

/**
 * Smaller images in the message body are decoration (logos, signatures, social icons, tracking pixels);
 * no legible photo or scan of a document is this small.
 */
export const DECORATION_MAX_BYTES = 20 * 1024;

/**
 * A signature logo or icon, wherever it sits (Outlook and some phones attach them as ordinary attachments):
 * under LOGO_MAX_BYTES and, by its header, no side over LOGO_MAX_SIDE_PX. Signature logos are typically
 * 100–200 px wide and a few KB; the smallest legible phone photo or scan of a page is well over 10 KB and
 * several hundred pixels on each side. Both must hold: a small file of a large picture (a heavily compressed
 * scan) or a small picture of a large file is left to the other rules.
 */
export const LOGO_MAX_BYTES = 10 * 1024;
export const LOGO_MAX_SIDE_PX = 200;

/**
 * An image the HTML body shows through a `cid:` link is part of the message's look (newsletter art, a
 * signature, a banner), not a document, unless it is page-sized: a parent who pastes a photo of a birth
 * certificate into the body (Gmail, Outlook) sends it exactly that way. Page-sized: at least PAGE_MIN_SIDE_PX
 * on both sides by its header (a phone photo is 3000+ px, a 150 dpi scan of a letter page 1275 × 1650; e-mail
 * art is laid out for a 600–800 px column), or, when the header cannot be read (HEIC), at least PAGE_MIN_BYTES.
 */
export const PAGE_MIN_SIDE_PX = 1000;
export const PAGE_MIN_BYTES = 300 * 1024;

export type RefusedPartCode = 'TOO_MANY_ATTACHMENTS' | 'WINMAIL_DAT' | 'ENCRYPTED_MAIL';

export type AttachmentSelection = {
  /** Parts to send through the pipeline, in message order, with a name safe to show. */
  documents: Array<{ index: number; filename: string }>;
  /** Files the sender meant as documents that will not be processed: record them as refused, with the message. */
  refused: Array<{ index: number; filename: string; code: RefusedPartCode; message: string }>;
  /** Parts that are not documents at all, and why. */
  skipped: Array<{ index: number; reason: string }>;
  /** Set when there is nothing to process: one sentence for the staff member. */
  error: string | null;
};

const SKIP = {
  attachedEmail: 'An attached e-mail (.eml), not a document',
  calendar: 'A calendar invitation, not a document',
  contactCard: 'A contact card, not a document',
  digitalSignature: "The e-mail's digital signature, not a document",
  bodyText: 'Text of the message, not a document',
  bodyImage: 'A small image in the message body (logo or signature), not a document',
  bodyArt: 'An image shown in the message body (newsletter art, logo or signature), not a document',
  logo: 'A logo or signature image, not a document',
} as const;

const REFUSE: Record<RefusedPartCode, string> = {
  TOO_MANY_ATTACHMENTS: `Only the first ${MAX_MAIL_DOCUMENTS} attachments of an e-mail are processed; ask the sender to send this one again`,
  WINMAIL_DAT: 'Outlook packed the attachments into winmail.dat; ask the sender to send them again as ordinary attachments',
  ENCRYPTED_MAIL: 'The e-mail is encrypted (smime.p7m) and cannot be read; ask the sender to send it unencrypted',
};

export const NO_ATTACHMENTS_ERROR = 'No attachments found in the e-mail';
export const NO_DOCUMENTS_ERROR = 'No PDF or image attachments found in the e-mail';
export const ONLY_ATTACHED_EMAIL_ERROR = 'No documents found in the e-mail: attached e-mails (.eml) are not opened; ask the sender to attach the documents themselves';

const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'jpe', 'jfif', 'png', 'gif', 'bmp', 'webp', 'heic', 'heif', 'tif', 'tiff', 'svg']);

/** Outlook's image001.png, Word's ~WRD0000.jpg, and what signatures and newsletters name their pictures. */
const LOGO_NAME = /^image\d{3}$|^~?wrd\d+$|logo|signature|^sig$|banner|icon|spacer|pixel|facebook|twitter|instagram|linkedin|youtube|tiktok/;

/**
 * Which parts of a message are documents. Skipped, as not documents: attached e-mails (message/rfc822,
 * .eml, .msg), calendar invitations, contact cards, digital signatures, the text parts of the body, and
 * decoration:
 * - images the HTML body shows by `cid:` (newsletter art, signatures), unless page-sized (PAGE_MIN_SIDE_PX);
 * - signature logos anywhere: under LOGO_MAX_BYTES and LOGO_MAX_SIDE_PX by their header;
 * - images under DECORATION_MAX_BYTES that sit in the body (no attachment disposition) or are named like a
 *   logo or signature (image001.png, logo.png …).
 * Skipped parts are neither documents nor refused: they are not recorded, and not counted as attachments.
 *
 * An image attached inline but NOT shown by the HTML is kept as a document, whatever its disposition: Apple
 * Mail and phone mail apps attach photos that way (Content-Disposition: inline, no `cid:` link), and a photo
 * of a document sent so is a document. A logo kept by mistake only waits for review; a document skipped by
 * mistake is lost without anyone seeing it.
 *
 * Whether a kept part really is a PDF or an image is the pipeline's job (from its bytes, never the
 * Content-Type): a .docx is passed on and refused there with a message staff can act on.
 * winmail.dat (Outlook's TNEF) and smime.p7m hold the real attachments where we cannot read them, and
 * parts past MAX_MAIL_DOCUMENTS are not processed: those are `refused`, so staff see them.
 */
export function selectAttachments(parts: readonly MailPartInfo[], body: { html: string | null } = { html: null }): AttachmentSelection {
  const selection: AttachmentSelection = { documents: [], refused: [], skipped: [], error: null };
  const shown = contentIdsShownBy(body.html);
  parts.forEach((part, index) => {
    const filename = sanitizeOriginalFilename(part.filename?.trim() ? part.filename : `attachment-${index + 1}`);
    const verdict = judgePart(part, filename, part.contentId !== null && shown.has(normalizeContentId(part.contentId)));
    if (verdict.kind === 'skip') {
      selection.skipped.push({ index, reason: verdict.reason });
    } else if (verdict.kind === 'refuse') {
      selection.refused.push({ index, filename, code: verdict.code, message: REFUSE[verdict.code] });
    } else if (selection.documents.length >= MAX_MAIL_DOCUMENTS) {
      selection.refused.push({ index, filename, code: 'TOO_MANY_ATTACHMENTS', message: REFUSE.TOO_MANY_ATTACHMENTS });
    } else {
      selection.documents.push({ index, filename });
    }
  });
  if (selection.documents.length === 0) selection.error = explainNoDocuments(selection);
  return selection;
}

type PartVerdict = { kind: 'document' } | { kind: 'skip'; reason: string } | { kind: 'refuse'; code: RefusedPartCode };

function judgePart(part: MailPartInfo, filename: string, shownInBody: boolean): PartVerdict {
  const type = part.contentType.toLowerCase().split(';')[0]?.trim() ?? '';
  const name = filename.toLowerCase();
  const extension = /\.([a-z0-9]{1,5})$/.exec(name)?.[1] ?? '';
  const stem = name.replace(/\.[a-z0-9]{1,5}$/, '');

  if (type === 'application/ms-tnef' || type === 'application/vnd.ms-tnef' || name === 'winmail.dat') {
    return { kind: 'refuse', code: 'WINMAIL_DAT' };
  }
  if (type === 'application/pkcs7-mime' || type === 'application/x-pkcs7-mime' || extension === 'p7m') {
    return { kind: 'refuse', code: 'ENCRYPTED_MAIL' };
  }
  if (type.startsWith('message/') || extension === 'eml' || extension === 'msg' || type === 'application/vnd.ms-outlook') {
    return { kind: 'skip', reason: SKIP.attachedEmail };
  }
  if (type === 'text/calendar' || type === 'application/ics' || extension === 'ics') {
    return { kind: 'skip', reason: SKIP.calendar };
  }
  if (type === 'text/vcard' || type === 'text/x-vcard' || type === 'text/directory' || extension === 'vcf') {
    return { kind: 'skip', reason: SKIP.contactCard };
  }
  if (
    ['application/pkcs7-signature', 'application/x-pkcs7-signature', 'application/pgp-signature', 'application/pgp-keys'].includes(type) ||
    extension === 'p7s'
  ) {
    return { kind: 'skip', reason: SKIP.digitalSignature };
  }
  if (type.startsWith('text/') && part.disposition !== 'attachment') {
    return { kind: 'skip', reason: SKIP.bodyText };
  }
  const isImage = type.startsWith('image/') || IMAGE_EXTENSIONS.has(extension);
  if (isImage && shownInBody && !isPageSized(part)) return { kind: 'skip', reason: SKIP.bodyArt };
  if (isImage && isSignatureLogo(part)) return { kind: 'skip', reason: SKIP.logo };
  if (isImage && part.size < DECORATION_MAX_BYTES) {
    if (part.disposition !== 'attachment') return { kind: 'skip', reason: SKIP.bodyImage };
    if (LOGO_NAME.test(stem)) return { kind: 'skip', reason: SKIP.logo };
  }
  return { kind: 'document' };
}

function isSignatureLogo(part: MailPartInfo): boolean {
  const size = part.dimensions;
  return size !== null && part.size < LOGO_MAX_BYTES && size.width <= LOGO_MAX_SIDE_PX && size.height <= LOGO_MAX_SIDE_PX;
}

function isPageSized(part: MailPartInfo): boolean {
  const size = part.dimensions;
  if (size === null) return part.size >= PAGE_MIN_BYTES;
  return size.width >= PAGE_MIN_SIDE_PX && size.height >= PAGE_MIN_SIDE_PX;
}

/** A Content-ID as a `cid:` link names it: without angle brackets, percent-decoded, case-insensitive. */
function normalizeContentId(id: string): string {
  const bare = id.trim().replace(/^<|>$/g, '').trim();
  try {
    return decodeURIComponent(bare).toLowerCase();
  } catch {
    return bare.toLowerCase();
  }
}

/** The Content-IDs the HTML body links to (`<img src="cid:…">`, CSS `url(cid:…)`). */
function contentIdsShownBy(html: string | null): Set<string> {
  const ids = new Set<string>();
  if (!html) return ids;
  for (const match of html.matchAll(/\bcid:([^'"\s<>()]{1,256})/gi)) ids.add(normalizeContentId(match[1] ?? ''));
  return ids;
}

function explainNoDocuments(selection: AttachmentSelection): string {
  const [refused] = selection.refused;
  if (refused) return refused.message;
  if (selection.skipped.some((part) => part.reason === SKIP.attachedEmail)) return ONLY_ATTACHED_EMAIL_ERROR;
  if (selection.skipped.some((part) => part.reason !== SKIP.bodyText)) return NO_DOCUMENTS_ERROR;
  return NO_ATTACHMENTS_ERROR;
}
