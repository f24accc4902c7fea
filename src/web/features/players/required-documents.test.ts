import { describe, expect, it } from 'vitest';
import { NOTHING_EXTRACTED, type TDocument } from '../../../contract';
import { requiredDocuments, whatIsMissing } from './required-documents';

const document = (overrides: Partial<TDocument>): TDocument => ({
  id: 'd',
  docType: 'birth_certificate',
  originalFilename: 'file.pdf',
  status: 'pending',
  uploadedAt: '2025-09-01T00:00:00.000Z',
  bytes: 1,
  fileSha256: null,
  storageUrl: null,
  storageDriver: null,
  guardianEmail: null,
  guardianPhone: null,
  reviewNotes: null,
  reviewedAt: null,
  scanFailed: false,
  facts: { birthDate: null, documentDate: null, residencyGroup: null },
  reviewedBy: null,
  fileRemovedAt: null,
  extracted: NOTHING_EXTRACTED,
  checks: [],
  reading: { state: 'off', method: null, readAt: null },
  ...overrides,
});

describe('requiredDocuments', () => {
  it('gives each type its state, Rejected when only a rejected copy was sent, Missing when none', () => {
    const required = requiredDocuments(
      { birth_certificate: 'missing', residency: 'complete', medical: 'missing', waiver: 'processing' },
      [
        document({ docType: 'medical', status: 'rejected' }),
        document({ docType: 'waiver', status: 'processing', scanFailed: true }),
        document({ docType: 'residency', status: 'verified' }),
      ],
    );
    expect(required.map((r) => [r.label, r.status, r.scanFailed])).toEqual([
      ['Birth Certificate', null, false],
      ['Residency Proof', 'verified', false],
      ['Medical Form', 'rejected', false],
      ['Liability Waiver', 'processing', true],
    ]);
    expect(whatIsMissing(required)).toBe('Missing: Birth Certificate. Rejected, a new copy is needed: Medical Form.');
  });

  it('names every missing type, and nothing when all are in', () => {
    const none = requiredDocuments({ birth_certificate: 'missing', residency: 'pending', medical: 'missing', waiver: 'missing' }, []);
    expect(whatIsMissing(none)).toBe('Missing: Birth Certificate, Medical Form, Liability Waiver.');
    const all = requiredDocuments({ birth_certificate: 'complete', residency: 'pending', medical: 'processing', waiver: 'complete' }, []);
    expect(whatIsMissing(all)).toBeNull();
  });

  it('names a lapsed approval as expired, and leaves out a type the season does not ask for', () => {
    const required = requiredDocuments(
      { birth_certificate: 'not_required', residency: 'complete', medical: 'expired', waiver: 'missing' },
      [document({ docType: 'medical', status: 'verified' })],
    );
    expect(required.map((r) => [r.label, r.summary])).toEqual([
      ['Birth Certificate', 'not_required'],
      ['Residency Proof', 'complete'],
      ['Medical Form', 'expired'],
      ['Liability Waiver', 'missing'],
    ]);
    expect(whatIsMissing(required)).toBe('Missing: Liability Waiver. Expired, a new one is needed: Medical Form.');
  });
});
