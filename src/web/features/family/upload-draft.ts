import { FAMILY_MAX_PAGES } from '../../../contract';

export { FAMILY_MAX_PAGES };

/** What a chosen file is to the page: a photo (one page), a PDF (the whole document), or neither. */
export type FileKind = 'photo' | 'pdf';

/** A photo or a PDF by its type, or by its name when the browser gives no type; null for anything else. */
export function fileKind(type: string, name: string): FileKind | null {
  const mime = type.toLowerCase();
  if (mime === 'application/pdf') return 'pdf';
  if (mime.startsWith('image/')) return 'photo';
  if (mime !== '' && mime !== 'application/octet-stream') return null;
  if (/\.pdf$/i.test(name)) return 'pdf';
  if (/\.(jpe?g|png|heic|heif|webp)$/i.test(name)) return 'photo';
  return null;
}

export interface DraftPage {
  kind: FileKind;
}

export interface DraftChange<T extends DraftPage> {
  pages: T[];
  /** Why some of the files were not added, in a family's words; null when every one was. */
  notice: string | null;
}

export const NOT_A_DOCUMENT_NOTICE = 'That file is not a photo or a PDF. Take a photo of the document, or choose a PDF.';
export const PDF_ALONE_NOTICE = 'A PDF is sent on its own. Remove the photos first to send a PDF instead.';
export const PHOTOS_AFTER_PDF_NOTICE = 'A PDF is sent on its own. Remove it first to send photos instead.';
export const TOO_MANY_PAGES_NOTICE = `A document can have at most ${FAMILY_MAX_PAGES} pages.`;

/**
 * The pages of one document after the family adds files: photos add up to FAMILY_MAX_PAGES pages; a PDF is
 * the whole document, so it goes only into an empty draft, alone. Files that cannot be added are left out with
 * a notice saying why; the pages already there are never dropped.
 */
export function addPages<T extends DraftPage>(pages: readonly T[], incoming: readonly (T | null)[]): DraftChange<T> {
  const next = [...pages];
  let notice: string | null = null;
  const note = (text: string) => {
    notice ??= text;
  };
  for (const page of incoming) {
    if (page === null) {
      note(NOT_A_DOCUMENT_NOTICE);
    } else if (page.kind === 'pdf') {
      if (next.length === 0) next.push(page);
      else note(next.some((existing) => existing.kind === 'pdf') ? PHOTOS_AFTER_PDF_NOTICE : PDF_ALONE_NOTICE);
    } else if (next.some((existing) => existing.kind === 'pdf')) {
      note(PHOTOS_AFTER_PDF_NOTICE);
    } else if (next.length >= FAMILY_MAX_PAGES) {
      note(TOO_MANY_PAGES_NOTICE);
    } else {
      next.push(page);
    }
  }
  return { pages: next, notice };
}

/** Whether another page may be added: the draft holds photos only, fewer than the most a document may have. */
export function canAddPage(pages: readonly DraftPage[]): boolean {
  return pages.length < FAMILY_MAX_PAGES && !pages.some((page) => page.kind === 'pdf');
}

/** The Send button's words: "Send photo", "Send 3 pages", "Send PDF". */
export function sendLabel(pages: readonly DraftPage[]): string {
  if (pages.some((page) => page.kind === 'pdf')) return 'Send PDF';
  return pages.length <= 1 ? 'Send photo' : `Send ${pages.length} pages`;
}
