import { describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract';
import {
  approvalPrefill,
  compareDates,
  compareNames,
  compareTypes,
  confidenceWords,
  currentIndex,
  decisionAnnouncement,
  nextQueuePage,
  offersBetterPhoto,
  pendingLeft,
  queueCounter,
  readingWords,
  remainingQueue,
  stepIndex,
  withCheck,
} from './review-queue';

const docs = (...ids: string[]) => ids.map((id) => ({ id }));

describe('stepping through the queue', () => {
  it('drops the documents decided here, and repeats', () => {
    expect(remainingQueue(docs('a', 'b', 'c', 'b'), new Set(['a']))).toEqual(docs('b', 'c'));
  });

  it('keeps the current document while it is there, and shows the one that took its place once it left', () => {
    expect(currentIndex(docs('a', 'b', 'c'), 'b', 0)).toBe(1);
    expect(currentIndex(docs('a', 'c'), 'b', 1)).toBe(1);
    // The last one decided: the one before it.
    expect(currentIndex(docs('a'), 'b', 1)).toBe(0);
    expect(currentIndex([], 'b', 0)).toBe(-1);
    expect(currentIndex(docs('a', 'b'), null, 0)).toBe(0);
  });

  it('steps one at a time, without wrapping', () => {
    expect(stepIndex(0, 3, 'next')).toBe(1);
    expect(stepIndex(2, 3, 'next')).toBeUndefined();
    expect(stepIndex(0, 3, 'previous')).toBeUndefined();
    expect(stepIndex(2, 3, 'previous')).toBe(1);
  });

  it('counts down as documents are decided, before the list is read again', () => {
    expect(pendingLeft(12, docs('a', 'b', 'c'), new Set(['a']))).toBe(11);
    expect(pendingLeft(11, docs('b', 'c'), new Set(['a']))).toBe(11);
    expect(queueCounter(3, 12)).toBe('3 of 12 pending');
  });

  it('announces a decision and what is left', () => {
    expect(decisionAnnouncement('approved', 'Ana Lopez', 'birth_certificate', 9)).toBe('Approved Ana Lopez’s birth certificate. 9 left.');
    expect(decisionAnnouncement('rejected', 'Ana Lopez', 'waiver', 0)).toBe('Rejected Ana Lopez’s liability waiver. Nothing left to review.');
    expect(decisionAnnouncement('photo', 'Ana Lopez', null, 2)).toBe('Asked for a better photo of Ana Lopez’s document. 2 left.');
  });

  it('says an estimated count of those pending as an estimate', () => {
    expect(queueCounter(3, 24_163)).toBe('3 of 24,163 pending');
    expect(queueCounter(3, 24_163, true)).toBe('3 of about 24,200 pending');
    expect(decisionAnnouncement('approved', 'Ana Lopez', 'birth_certificate', 24_162, true)).toBe('Approved Ana Lopez’s birth certificate. About 24,200 left.');
  });
});

describe('nextQueuePage', () => {
  const page = (n: number, rows: number, total: number, totalIsEstimate: boolean) => ({
    documents: docs(...Array.from({ length: rows }, (_, i) => `d${i}`)),
    page: n,
    pageSize: 100,
    total,
    totalIsEstimate,
  });

  it('reads on while the exact total has more', () => {
    expect(nextQueuePage(page(1, 100, 250, false))).toBe(2);
    expect(nextQueuePage(page(2, 100, 200, false))).toBeUndefined();
    expect(nextQueuePage(page(3, 50, 250, false))).toBeUndefined();
  });

  it('reads on after every full page of an estimated queue, and stops at one not full or empty', () => {
    expect(nextQueuePage(page(1, 100, 24_163, true))).toBe(2);
    // The estimate fell short of the queue: a full page still has a next one.
    expect(nextQueuePage(page(12, 100, 1_150, true))).toBe(13);
    expect(nextQueuePage(page(13, 0, 1_200, true))).toBeUndefined();
  });
});

describe('what the document says beside the registration', () => {
  it('matches names without case, accents or a middle name', () => {
    expect(compareNames('Ana López', 'ANA MARIA LOPEZ')).toBe('same');
    expect(compareNames('Ana Lopez', 'Ana Perez')).toBe('differs');
    expect(compareNames('Ana Lopez', null)).toBe('unknown');
  });

  it('compares dates and types, unknown when either side is missing', () => {
    expect(compareDates('2014-05-17', '2014-05-17')).toBe('same');
    expect(compareDates('2014-05-17', '2014-05-30')).toBe('differs');
    expect(compareDates('2014-05-17', null)).toBe('unknown');
    expect(compareTypes('medical', 'birth_certificate')).toBe('differs');
    expect(compareTypes(null, 'medical')).toBe('unknown');
  });

  it('lets the server’s check decide that a field differs, and calls any other difference close', () => {
    expect(withCheck('unknown', [{ kind: 'name_mismatch', message: 'x' }], 'name_mismatch')).toBe('differs');
    expect(withCheck('same', [{ kind: 'expired', message: 'x' }], 'name_mismatch')).toBe('same');
    expect(withCheck('differs', [], 'dob_mismatch')).toBe('close');
  });

  it('says the confidence and the reading in words', () => {
    expect(confidenceWords(0.93)).toBe('Read with high confidence');
    expect(confidenceWords(0.6)).toBe('Read with medium confidence');
    expect(confidenceWords(0.2)).toBe('Read with low confidence');
    expect(confidenceWords(null)).toBeNull();
    expect(readingWords({ state: 'waiting', method: null, readAt: null }, null)).toBe('Still being read…');
    expect(readingWords({ state: 'off', method: null, readAt: null }, null)).toBe('Reading is turned off');
    expect(readingWords({ state: 'failed', method: null, readAt: null }, null)).toBe('Could not be read; review by eye');
    expect(readingWords({ state: 'done', method: 'ocr', readAt: null }, 0.9)).toBe('Read from the image (OCR). Read with high confidence.');
  });
});

describe('the approval step filled in from the document', () => {
  const read = (extracted: Partial<TDocument['extracted']>, state: TDocument['reading']['state'] = 'done', checks: TDocument['checks'] = []) => ({
    extracted: { docType: null, fullName: null, dateOfBirth: null, documentDate: null, confidence: null, ...extracted },
    reading: { state, method: 'pdf-text' as const, readAt: null },
    checks,
  });

  it('takes a certificate’s date of birth when it differs from the registration, and a form’s or letter’s date', () => {
    const differs = [{ kind: 'dob_mismatch' as const, message: 'x' }];
    expect(approvalPrefill('birth_certificate', read({ dateOfBirth: '2014-05-30', documentDate: '2020-01-01' }, 'done', differs))).toEqual({ birthDate: '2014-05-30' });
    // The same date (or the same one printed day first): the step starts from the registered date, as it does anyway.
    expect(approvalPrefill('birth_certificate', read({ dateOfBirth: '2014-05-17' }))).toEqual({});
    expect(approvalPrefill('medical', read({ documentDate: '2026-09-01' }))).toEqual({ documentDate: '2026-09-01' });
    expect(approvalPrefill('residency', read({ documentDate: '2026-08-01' }))).toEqual({ documentDate: '2026-08-01' });
  });

  it('fills in nothing before the reading is done, for a waiver, or when nothing was found', () => {
    expect(approvalPrefill('birth_certificate', read({ dateOfBirth: '2014-05-17' }, 'waiting'))).toEqual({});
    expect(approvalPrefill('waiver', read({ documentDate: '2026-09-01' }))).toEqual({});
    expect(approvalPrefill('medical', read({}))).toEqual({});
    expect(approvalPrefill('medical', undefined)).toEqual({});
  });

  it('offers “Ask for a better photo” for an unreadable document only', () => {
    expect(offersBetterPhoto([{ kind: 'unreadable', message: 'Too dark' }])).toBe(true);
    expect(offersBetterPhoto([{ kind: 'expired', message: 'Old' }])).toBe(false);
  });
});

describe('drawing the document', () => {
  it('zooms fit, 100%, 200% and back, and turns a quarter at a time', async () => {
    const { nextZoom, nextRotation, zoomWords } = await import('./file-view');
    expect([nextZoom('fit'), nextZoom(1), nextZoom(2)]).toEqual([1, 2, 'fit']);
    expect([nextRotation(0), nextRotation(90), nextRotation(270)]).toEqual([90, 180, 0]);
    expect(zoomWords(2)).toBe('200%');
  });

  it('fits a turned image into its frame, and lets a zoomed one overflow', async () => {
    const { imageLayout } = await import('./file-view');
    const natural = { width: 800, height: 400 };
    const frame = { width: 400, height: 400 };
    expect(imageLayout(natural, frame, 'fit', 0)).toEqual({ image: { width: 400, height: 200 }, box: { width: 400, height: 200 } });
    expect(imageLayout(natural, frame, 'fit', 90)).toEqual({ image: { width: 800 / 2, height: 200 }, box: { width: 200, height: 400 } });
    expect(imageLayout(natural, frame, 2, 270)).toEqual({ image: { width: 1600, height: 800 }, box: { width: 800, height: 1600 } });
  });
});
