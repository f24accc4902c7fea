import { describe, expect, it } from 'vitest';
import { data, DAY_MS, NOW, requireDate, tally } from './demo-data.fixture';

describe('generateDemoData: submissions', () => {
  it('uses both sources, about 70% form and 30% mailbox', () => {
    const formShare = data.submissions.filter((s) => s.source === 'form').length / data.submissions.length;
    expect(formShare).toBeGreaterThan(0.6);
    expect(formShare).toBeLessThan(0.8);
  });

  it('gives every submission an external id unique within its source, in the source format', () => {
    const keys = new Set(data.submissions.map((s) => `${s.source}|${s.externalId}`));
    expect(keys.size).toBe(data.submissions.length);
    for (const submission of data.submissions) {
      expect(submission.externalId).toMatch(
        submission.source === 'form' ? /^form-\d{6}$/ : /^<[0-9a-z.]+@[a-z]+\.example\.(org|com|net)>$/,
      );
    }
  });

  it('has roughly one submission per registration', () => {
    expect(data.submissions.length).toBeGreaterThanOrEqual(data.registrations.length);
    expect(data.submissions.length).toBeLessThan(data.registrations.length * 1.6);
  });

  it('counts the documents of each submission as its attachments', () => {
    const perSubmission = tally(data.documents, (d) => d.submissionId ?? '');
    for (const submission of data.submissions) {
      if (submission.status !== 'failed') expect(submission.attachmentCount).toBe(perSubmission.get(submission.id ?? '') ?? 0);
    }
  });

  it('marks most submissions processed, some pending, and some failed with a message staff can act on', () => {
    const perStatus = tally(data.submissions, (s) => s.status ?? 'unset');
    expect(perStatus.get('processed') ?? 0).toBeGreaterThan(data.submissions.length * 0.8);
    expect(perStatus.get('pending') ?? 0).toBeGreaterThan(0);
    const failed = data.submissions.filter((s) => s.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    const messages = new Set(failed.map((s) => s.errorMessage));
    for (const message of ['No player name found in the e-mail', 'Attachment is not a PDF or image', 'Virus found: Eicar-Test-Signature']) {
      expect(messages).toContain(message);
    }
    expect(data.submissions.filter((s) => s.status !== 'failed').every((s) => s.errorMessage === null)).toBe(true);
    expect(data.documents.some((d) => failed.some((s) => s.id === d.submissionId))).toBe(false);
  });

  it('keeps only the newest submissions pending, with their files still processing', () => {
    const pending = data.submissions.filter((s) => s.status === 'pending');
    expect(pending.length).toBeGreaterThanOrEqual(2);
    expect(pending.length).toBeLessThan(data.submissions.length * 0.01);
    for (const submission of pending) {
      expect(requireDate(submission.receivedAt, 'receivedAt').getTime()).toBeGreaterThan(NOW.getTime() - 60 * 60 * 1000);
      const docs = data.documents.filter((d) => d.submissionId === submission.id);
      expect(docs.every((d) => d.status === 'processing')).toBe(true);
    }
  });

  it('gives mailbox submissions a registration subject, some none, and form submissions the player fields', () => {
    const mailbox = data.submissions.filter((s) => s.source === 'mailbox' && s.status !== 'failed');
    expect(mailbox.some((s) => s.subject?.startsWith('Registration documents for '))).toBe(true);
    expect(mailbox.some((s) => s.subject === null)).toBe(true);
    const form = data.submissions.find((s) => s.source === 'form' && s.status === 'processed');
    expect(form?.fields?.playerFirstName).toMatch(/^\p{L}/u);
    expect(form?.fields?.birthDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('puts several mailbox submissions, including a failed one, in the last 24 hours and the last 7 days', () => {
    const within = (ms: number) =>
      data.submissions.filter(
        (s) => s.source === 'mailbox' && requireDate(s.receivedAt, 'receivedAt').getTime() >= NOW.getTime() - ms,
      );
    expect(within(DAY_MS).length).toBeGreaterThanOrEqual(3);
    expect(within(DAY_MS).some((s) => s.status === 'failed')).toBe(true);
    expect(within(7 * DAY_MS).length).toBeGreaterThan(within(DAY_MS).length);
  });
});
