import { describe, expect, it } from 'vitest';
import {
  addPages,
  canAddPage,
  FAMILY_MAX_PAGES,
  fileKind,
  NOT_A_DOCUMENT_NOTICE,
  PDF_ALONE_NOTICE,
  PHOTOS_AFTER_PDF_NOTICE,
  sendLabel,
  TOO_MANY_PAGES_NOTICE,
  type DraftPage,
} from './upload-draft';

type Page = DraftPage & { id: number };
const photo = (id: number): Page => ({ kind: 'photo', id });
const pdf = (id: number): Page => ({ kind: 'pdf', id });
const photos = (count: number, from = 0) => Array.from({ length: count }, (_, index) => photo(from + index));

describe('fileKind', () => {
  it('knows photos and PDFs by their type', () => {
    expect(fileKind('image/jpeg', 'a.jpg')).toBe('photo');
    expect(fileKind('image/heic', 'IMG_1.HEIC')).toBe('photo');
    expect(fileKind('application/pdf', 'form.pdf')).toBe('pdf');
  });

  it('reads the name when the browser gives no type', () => {
    expect(fileKind('', 'form.PDF')).toBe('pdf');
    expect(fileKind('application/octet-stream', 'IMG_1.heic')).toBe('photo');
    expect(fileKind('', 'notes.txt')).toBeNull();
  });

  it('refuses anything else, whatever its name', () => {
    expect(fileKind('application/msword', 'form.pdf')).toBeNull();
    expect(fileKind('text/plain', 'photo.jpg')).toBeNull();
  });
});

describe('addPages', () => {
  it('adds photos as pages, in order', () => {
    expect(addPages([photo(1)], [photo(2), photo(3)])).toEqual({ pages: [photo(1), photo(2), photo(3)], notice: null });
  });

  it('stops at the most pages a document may have, keeping those already there', () => {
    const change = addPages(photos(FAMILY_MAX_PAGES - 1), photos(3, 100));
    expect(change.pages).toHaveLength(FAMILY_MAX_PAGES);
    expect(change.pages.at(-1)).toEqual(photo(100));
    expect(change.notice).toBe(TOO_MANY_PAGES_NOTICE);
  });

  it('takes a PDF alone into an empty draft', () => {
    expect(addPages([], [pdf(1)])).toEqual({ pages: [pdf(1)], notice: null });
  });

  it('keeps the photos and says why when a PDF is added to them', () => {
    expect(addPages([photo(1)], [pdf(2)])).toEqual({ pages: [photo(1)], notice: PDF_ALONE_NOTICE });
  });

  it('keeps the PDF and says why when photos or another PDF are added to it', () => {
    expect(addPages([pdf(1)], [photo(2)])).toEqual({ pages: [pdf(1)], notice: PHOTOS_AFTER_PDF_NOTICE });
    expect(addPages([pdf(1)], [pdf(2)])).toEqual({ pages: [pdf(1)], notice: PHOTOS_AFTER_PDF_NOTICE });
    expect(addPages([], [pdf(1), photo(2)])).toEqual({ pages: [pdf(1)], notice: PHOTOS_AFTER_PDF_NOTICE });
  });

  it('leaves out a file that is neither and adds the rest', () => {
    expect(addPages([], [null, photo(1)])).toEqual({ pages: [photo(1)], notice: NOT_A_DOCUMENT_NOTICE });
  });
});

describe('canAddPage and sendLabel', () => {
  it('offers another page to photos below the limit only', () => {
    expect(canAddPage([])).toBe(true);
    expect(canAddPage(photos(FAMILY_MAX_PAGES - 1))).toBe(true);
    expect(canAddPage(photos(FAMILY_MAX_PAGES))).toBe(false);
    expect(canAddPage([pdf(1)])).toBe(false);
  });

  it('says what goes', () => {
    expect(sendLabel([photo(1)])).toBe('Send photo');
    expect(sendLabel(photos(3))).toBe('Send 3 pages');
    expect(sendLabel([pdf(1)])).toBe('Send PDF');
  });
});
