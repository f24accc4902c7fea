import { describe, expect, it } from 'vitest';
import { attachmentDocType } from './mail-doc-type';
import type { MailSummary } from './mail-text';
import { mail } from './mail.fixture';

describe('attachmentDocType', () => {
  it.each<[string, Partial<MailSummary>, number, ReturnType<typeof attachmentDocType>]>([
    ['birth_certificate.pdf', { subject: 'Medical form' }, 3, { docType: 'birth_certificate', from: 'filename' }],
    ['Signed Waiver.jpg', {}, 1, { docType: 'waiver', from: 'filename' }],
    ['IMG_2041.jpg', { subject: 'Birth certificate for Jane Doe' }, 1, { docType: 'birth_certificate', from: 'subject' }],
    ['IMG_2041.jpg', { subject: 'Re: Fwd: proof of residency' }, 1, { docType: 'residency', from: 'subject' }],
    ['scan0001.pdf', { subject: 'Registration - Jane Doe - AA', text: 'Attached is the signed liability waiver.' }, 1, { docType: 'waiver', from: 'body' }],
    ['scan0001.pdf', { subject: 'Documents', html: '<p>Here is her sports physical.</p>' }, 1, { docType: 'medical', from: 'body' }],
    ['IMG_2041.jpg', { subject: 'Birth certificate for Jane Doe' }, 2, { docType: null, from: null }],
    ['IMG_2041.jpg', { text: 'Attached: birth certificate and medical form' }, 1, { docType: null, from: null }],
    ['IMG_2041.jpg', { subject: 'Documents for Jane Doe', text: 'Player: Jane Doe\nDate of birth: 2015-03-02' }, 1, { docType: null, from: null }],
    ['IMG_2041.jpg', { text: 'Here it is.\n\nOn Tue, Mar 3, 2025 League wrote:\n> Please send the medical form' }, 1, { docType: null, from: null }],
    ['IMG_2041.jpg', {}, 1, { docType: null, from: null }],
    ['birth certificate and waiver.pdf', { subject: 'Waiver' }, 1, { docType: 'waiver', from: 'subject' }],
  ])('types %j with %j and %i documents', (filename, overrides, count, expected) => {
    expect(attachmentDocType(filename, mail(overrides), count)).toEqual(expected);
  });
});
