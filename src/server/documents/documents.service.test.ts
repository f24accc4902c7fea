import { describe, expect, it } from 'vitest';
import type { TAuditAction } from '../../contract';
import { refusedReopen, refusedTransition, summarizeAuditEvent } from './documents.service';

const ID = '0b9d2d8e-6f39-4a4c-9d3e-1f6c2b7a9e10';
const say = (action: TAuditAction, detail: Record<string, unknown>, actor = 'system') => summarizeAuditEvent({ action, actor, detail }, ID);

describe('summarizeAuditEvent', () => {
  it('says where a document came from, and why a file refused at intake was refused', () => {
    expect(say('submission.received', { documents: [{ id: ID, status: 'processing' }] }, 'form')).toBe('Received from the registration form');
    expect(say('submission.received', {}, 'mailbox')).toBe('Received by e-mail');
    expect(say('submission.received', {}, 'test')).toBe('Sent by the pipeline test');
    expect(say('submission.received', {}, 'upload')).toBe('Uploaded by staff');
    expect(say('submission.received', {}, 'fax')).toBe('Received (fax)');
    expect(
      say('submission.received', { documents: [{ id: 'other', status: 'rejected', message: 'nope' }, { id: ID, status: 'rejected', message: 'The file is not a PDF or image' }] }, 'mailbox'),
    ).toBe('Received by e-mail and refused: The file is not a PDF or image');
    // A duplicate points at an existing document: it is not refused.
    expect(say('submission.received', { documents: [{ id: ID, status: 'verified', duplicateOf: ID, message: 'This exact file was already received' }] }, 'form')).toBe(
      'Received from the registration form',
    );
  });

  it('says where and as what a document was stored', () => {
    expect(say('document.stored', { driver: 'local', docType: 'birth_certificate', detectedFrom: 'declared' })).toBe('Stored in local storage as birth_certificate');
    expect(say('document.stored', { driver: 's3', docType: 'waiver', detectedFrom: 'filename' })).toBe('Stored in S3 storage as waiver (detected from the file name)');
    expect(say('document.stored', { driver: 'local', docType: null, detectedFrom: 'filename' })).toBe('Stored in local storage; its type could not be detected');
  });

  it('tells review decisions, downloads, moves, viruses and retention', () => {
    expect(say('document.status_changed', { from: 'pending', to: 'rejected', reviewNotes: 'blurry scan' }, 'shared-password')).toBe('Status changed from pending to rejected: blurry scan');
    expect(say('document.status_changed', { from: 'rejected', to: 'pending', reviewNotes: null }, 'shared-password')).toBe('Status changed from rejected to pending');
    expect(say('document.downloaded', { storageKey: 'k' }, 'shared-password')).toBe('Downloaded');
    expect(say('document.reopened', { from: 'verified', reason: 'Approved by mistake' }, 'shared-password')).toBe(
      'Reopened for review (it was verified): Approved by mistake',
    );
    expect(say('document.moved_to_storage', { from: 'local', to: 's3' }, 'shared-password')).toBe('Moved from local storage to S3 storage');
    expect(say('document.rejected_virus', { signature: 'Eicar-Test-Signature', originalFilename: 'x.pdf' })).toBe('Virus found: Eicar-Test-Signature; the file was discarded');
    expect(say('document.purged', { storageKey: 'k', retainUntil: '2032-01-01T00:00:00.000Z' })).toBe('Removed after the retention period');
  });

  it('falls back to a plain sentence for an action it does not know or a detail it cannot read', () => {
    expect(say('user.updated', {})).toBe("Recorded 'user.updated' (by System)");
    expect(say('document.status_changed', { from: 'lost' }, 'shared-password')).toBe("Recorded 'document.status_changed' (by Shared password)");
    expect(say('document.rejected_virus', {})).toBe('Virus found; the file was discarded');
  });
});

describe('refusedTransition', () => {
  it('allows only review decisions on a document under review, and says why any other is refused', () => {
    expect(refusedTransition('pending', 'verified')).toBeUndefined();
    expect(refusedTransition('pending', 'rejected')).toBeUndefined();
    // Back to Under Review is a reopen, which asks why.
    expect(refusedTransition('verified', 'pending')).toBe('it is verified');
    expect(refusedTransition('rejected', 'pending')).toBe('it is rejected');
    expect(refusedTransition('verified', 'verified')).toBe('it is already verified');
    expect(refusedTransition('rejected', 'verified')).toBe('it is rejected');
    expect(refusedTransition('processing', 'verified')).toBe('it is still being processed');
  });
});

describe('refusedReopen', () => {
  it('reopens only a verified or rejected document whose file is still kept, and says why not otherwise', () => {
    expect(refusedReopen({ status: 'verified', purgedAt: null })).toBeUndefined();
    expect(refusedReopen({ status: 'rejected', purgedAt: null })).toBeUndefined();
    expect(refusedReopen({ status: 'pending', purgedAt: null })).toBe('it is already under review');
    expect(refusedReopen({ status: 'processing', purgedAt: null })).toBe('it is still being processed');
    expect(refusedReopen({ status: 'verified', purgedAt: new Date() })).toBe('its file was removed after the retention period');
  });
});
