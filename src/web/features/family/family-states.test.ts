import { describe, expect, it } from 'vitest';
import { deadlineWording, documentCardView, localDay, pageSummary, pageTitle, type FamilyDocument } from './family-states';

const doc = (state: FamilyDocument['state'], reason: string | null = null): FamilyDocument => ({
  type: 'medical',
  label: 'Medical Form',
  state,
  reason,
  receivedAt: state === 'missing' ? null : '2026-03-01T10:00:00.000Z',
});

describe('documentCardView', () => {
  it('offers to send a missing document', () => {
    expect(documentCardView(doc('missing'))).toMatchObject({ label: 'Missing', tone: 'missing', canSend: true, reason: null });
  });

  it('says a volunteer will check one under review, and offers nothing', () => {
    expect(documentCardView(doc('under_review'))).toEqual({
      label: 'Under review',
      explanation: 'We have it; a volunteer will check it.',
      tone: 'waiting',
      canSend: false,
      reason: null,
    });
  });

  it('offers nothing for an accepted document', () => {
    expect(documentCardView(doc('accepted'))).toMatchObject({ label: 'Accepted', tone: 'done', canSend: false, reason: null });
  });

  it('shows the reviewer’s reason for a document not accepted and offers to send it again', () => {
    expect(documentCardView(doc('not_accepted', ' Physician signature is missing '))).toMatchObject({
      label: 'Not accepted',
      tone: 'refused',
      canSend: true,
      reason: 'Physician signature is missing',
    });
  });

  it('says so when a document was not accepted without a reason', () => {
    expect(documentCardView(doc('not_accepted', null)).reason).toMatch(/no reason/);
    expect(documentCardView(doc('not_accepted', '  ')).reason).toMatch(/no reason/);
  });

  it('never shows a reason for a document that is not refused', () => {
    expect(documentCardView(doc('accepted', 'old note')).reason).toBeNull();
  });
});

describe('pageSummary', () => {
  it('counts the documents still to send, missing or not accepted', () => {
    expect(pageSummary([doc('missing'), doc('not_accepted', 'Blurry'), doc('accepted')])).toBe('2 documents still to send.');
    expect(pageSummary([doc('missing'), doc('under_review')])).toBe('1 document still to send.');
  });

  it('says when everything is in, and when everything is accepted', () => {
    expect(pageSummary([doc('under_review'), doc('accepted')])).toBe('We have every document. A volunteer will check them.');
    expect(pageSummary([doc('accepted'), doc('accepted')])).toBe('Every document is accepted. Thank you!');
    expect(pageSummary([])).toBe('There are no documents to send.');
  });
});

describe('pageTitle', () => {
  it('names the player and the season', () => {
    expect(pageTitle('Sam', 'Spring 2026')).toBe('Sam’s documents for Spring 2026');
    expect(pageTitle('  ', 'Spring 2026')).toBe('Your documents for Spring 2026');
  });
});

describe('deadlineWording', () => {
  it('asks to send by the deadline while there is time, the deadline day included', () => {
    expect(deadlineWording('2026-04-15', '2026-04-01', 2)).toEqual({ before: 'Please send them by ', after: '.' });
    expect(deadlineWording('2026-04-15', '2026-04-15', 1)).toEqual({ before: 'Please send them by ', after: '.' });
  });

  it('says the deadline has passed and asks for the documents as soon as possible', () => {
    expect(deadlineWording('2026-04-15', '2026-04-16', 1)).toEqual({ before: 'The deadline was ', after: '. Please send them as soon as you can.' });
    expect(deadlineWording('2026-04-15T23:59:00.000Z', '2026-05-01', 1).before).toBe('The deadline was ');
  });

  it('only names the date when nothing is left to send', () => {
    expect(deadlineWording('2026-04-15', '2026-05-01', 0)).toEqual({ before: 'Deadline: ', after: '' });
  });
});

describe('localDay', () => {
  it('is the reader’s calendar day', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});
