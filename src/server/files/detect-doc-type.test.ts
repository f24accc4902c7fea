import { describe, expect, it } from 'vitest';
import { detectDocType } from './detect-doc-type';

describe('detectDocType from the declared type', () => {
  it.each([
    ['birth_certificate', 'birth_certificate'],
    ['residency', 'residency'],
    ['medical', 'medical'],
    ['waiver', 'waiver'],
    ['Birth Certificate', 'birth_certificate'],
    ['BIRTH CERTIFICATE', 'birth_certificate'],
    ['birthCertificate', 'birth_certificate'],
    ['Residency Proof', 'residency'],
    ['residency proof', 'residency'],
    ['Proof of Residency', 'residency'],
    ['proof-of-address', 'residency'],
    ['Medical Form', 'medical'],
    ['Sports Physical', 'medical'],
    ['Liability Waiver', 'waiver'],
    ['  liability   waiver ', 'waiver'],
    ['Release of Liability', 'waiver'],
  ])('accepts %j as %s', (declared, docType) => {
    expect(detectDocType({ declared })).toEqual({ docType, source: 'declared' });
  });

  it('trusts the declared type over the file name and the text', () => {
    expect(detectDocType({ declared: 'waiver', filename: 'birth certificate.pdf', text: 'medical form' })).toEqual({
      docType: 'waiver',
      source: 'declared',
    });
  });

  it('rejects an unknown declared type instead of guessing past it', () => {
    expect(detectDocType({ declared: 'xyz', filename: 'signed-waiver.pdf' })).toEqual({
      docType: null,
      code: 'UNKNOWN_DECLARED_TYPE',
      reason: 'Unknown document type "xyz"; expected Birth Certificate, Residency Proof, Medical Form or Liability Waiver',
    });
  });

  it('does not search a declared value for keywords', () => {
    expect(detectDocType({ declared: 'Birth Certificate or Passport' })).toMatchObject({ docType: null, code: 'UNKNOWN_DECLARED_TYPE' });
  });

  it('echoes an unknown declared value short and without control characters', () => {
    const result = detectDocType({ declared: `\u202Eevil"\n${'x'.repeat(200)}` });
    expect(result).toMatchObject({ docType: null, code: 'UNKNOWN_DECLARED_TYPE' });
    const reason = result.docType === null ? result.reason : '';
    expect(reason).toMatch(/^Unknown document type "evilx{56}…"/);
  });

  it('treats an empty or blank declared value as not declared', () => {
    expect(detectDocType({ declared: '', filename: 'signed-waiver.pdf' })).toEqual({ docType: 'waiver', source: 'filename' });
    expect(detectDocType({ declared: '   ', filename: 'signed-waiver.pdf' })).toEqual({ docType: 'waiver', source: 'filename' });
    expect(detectDocType({ declared: null, filename: 'signed-waiver.pdf' })).toEqual({ docType: 'waiver', source: 'filename' });
  });
});

describe('detectDocType from the file name', () => {
  it.each([
    ['Emma Smith - Birth Cert.pdf', 'birth_certificate'],
    ['birth_certificate_emma.pdf', 'birth_certificate'],
    ['EmmaSmithBirthCertificate.pdf', 'birth_certificate'],
    ['smith_bc.jpg', 'birth_certificate'],
    ['BC2025.pdf', 'birth_certificate'],
    ['certificate.pdf', 'birth_certificate'],
    ['proof_of_residency_utility_bill.pdf', 'residency'],
    ['Proof of Address.pdf', 'residency'],
    ['electric utility bill march.pdf', 'residency'],
    ['apartment lease 2025.pdf', 'residency'],
    ['sports physical 2025.pdf', 'medical'],
    ['Medical Form - Liam.pdf', 'medical'],
    ['physician-signed.jpg', 'medical'],
    ['health_form.heic', 'medical'],
    ['medical certificate.pdf', 'medical'],
    ['medical release.pdf', 'medical'],
    ['signed-waiver.pdf', 'waiver'],
    ['Liability_Release_Smith.pdf', 'waiver'],
    ['release.pdf', 'waiver'],
    ['C:\\Users\\bc\\Documents\\signed waiver.pdf', 'waiver'],
  ])('reads %j as %s', (filename, docType) => {
    expect(detectDocType({ filename })).toEqual({ docType, source: 'filename' });
  });

  it.each([
    ['IMG_2041.jpg'],
    ['scan0001.pdf'],
    ['abc.pdf'],
    ['document.pdf'],
    ['notes-abc.pdf'],
    ['please-sign.pdf'],
    ['Bill Smith.pdf'],
  ])('finds no type in %j', (filename) => {
    expect(detectDocType({ filename })).toEqual({
      docType: null,
      code: 'UNDETECTED',
      reason: 'Could not tell the document type; needs review',
    });
  });

  it('matches whole words: bc is not found in abc, lease not in release or please', () => {
    expect(detectDocType({ filename: 'abc123.pdf' }).docType).toBeNull();
    expect(detectDocType({ filename: 'please scan.pdf' }).docType).toBeNull();
    expect(detectDocType({ filename: 'release.pdf' }).docType).toBe('waiver');
  });

  it('lets an ambiguous name fall through to the text', () => {
    expect(detectDocType({ filename: 'birth certificate and waiver.pdf', text: 'Liability Waiver and Release' })).toEqual({
      docType: 'waiver',
      source: 'text',
    });
    expect(detectDocType({ filename: 'birth certificate and waiver.pdf' })).toMatchObject({ docType: null, code: 'UNDETECTED' });
  });
});

describe('detectDocType from the text', () => {
  it('falls back to text when the name says nothing', () => {
    expect(detectDocType({ filename: 'scan0001.pdf', text: 'Liability Waiver and Release' })).toEqual({
      docType: 'waiver',
      source: 'text',
    });
    expect(detectDocType({ filename: 'IMG_2041.jpg' })).toMatchObject({ docType: null, code: 'UNDETECTED' });
  });

  it.each([
    ["Emma's birth certificate", 'birth_certificate'],
    ['Certificate of Live Birth\nState of Ohio\nDate of birth: 2014-05-03', 'birth_certificate'],
    ['Re: proof of residency for the Smith family', 'residency'],
    ['Attached is our utility bill', 'residency'],
    ['Pre-participation physical evaluation. Physician signature:', 'medical'],
    ['Sports physical for Liam', 'medical'],
    [
      'RELEASE AND WAIVER OF LIABILITY. I authorize emergency medical treatment. I release the league from all liability.',
      'waiver',
    ],
  ])('reads %j as %s', (text, docType) => {
    expect(detectDocType({ text })).toEqual({ docType, source: 'text' });
  });

  it('does not take a date of birth, a physical address or "bc" in an e-mail as a document type', () => {
    for (const text of ['Date of birth: 2014-05-03', 'Physical address: 12 Elm St', 'sending again bc the form failed']) {
      expect(detectDocType({ text })).toMatchObject({ docType: null, code: 'UNDETECTED' });
    }
  });

  it('gives no answer when the text names two types equally', () => {
    expect(detectDocType({ text: 'Attached: birth certificate and medical form' })).toMatchObject({ docType: null, code: 'UNDETECTED' });
  });

  it('needs review when nothing was given', () => {
    expect(detectDocType({})).toEqual({ docType: null, code: 'UNDETECTED', reason: 'Could not tell the document type; needs review' });
  });
});
