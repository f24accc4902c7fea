import { describe, expect, it } from 'vitest';
import { detectContentType, extractFacts, readName } from './facts';

const read = (text: string, confidence: number | null = 0.9) => extractFacts({ text, confidence });

const BIRTH_CERTIFICATE = `STATE OF OREGON
CERTIFICATE OF LIVE BIRTH
State file number 2014-0012345
Name of child: Ana María López-García
Date of birth: 12/09/2014      Time of birth: 08:42
Place of birth: Portland, Multnomah County
Mother's maiden name: Maria García      Mother's date of birth: 03/04/1985
Father's name: José López
Date filed: 12/20/2014
Registrar: Jane Smith`;

const MEDICAL = `PRE-PARTICIPATION PHYSICAL EXAMINATION
Patient name
Liam O'Connor
Date of birth    Date of exam
June 3, 2013     9 January 2025
Height 140 cm  Weight 35 kg  Blood pressure 110/70  Pulse 72
Cleared for all sports without restriction.
Physician: Dr. Sarah Chen, MD`;

const UTILITY_BILL = `Cascade Power & Light
Statement date: 02/03/2025
Account number 4471-2290-18
Service address: 12 Elm Street, Salem, OR 97301
Customer: Maria García
Amount due $84.12   Due date 02/28/2025   Usage 612 kWh`;

const WAIVER = `RELEASE OF LIABILITY AND ASSUMPTION OF RISK
Participant name: Noah Müller
Date of birth: 2015-07-21
I, the parent/guardian, waive and release the league and hold harmless its volunteers from any injury.
In an emergency I consent to medical treatment.
Parent/Guardian signature: ____________   Printed name: Eva Müller
Date: 3 Mar 2025`;

describe('extractFacts', () => {
  it('reads a birth certificate: the child, not the mother', () => {
    expect(read(BIRTH_CERTIFICATE, 0.93)).toEqual({
      docType: 'birth_certificate',
      fullName: 'Ana María López-García',
      dateOfBirth: '2014-12-09',
      documentDate: '2014-12-20',
      confidence: 0.93,
    });
  });

  it('reads labels above their values, in columns', () => {
    expect(read(MEDICAL)).toMatchObject({ docType: 'medical', fullName: "Liam O'Connor", dateOfBirth: '2013-06-03', documentDate: '2025-01-09' });
  });

  it('reads a utility bill: its date, and no child name from the account holder', () => {
    expect(read(UTILITY_BILL)).toMatchObject({ docType: 'residency', fullName: null, dateOfBirth: null, documentDate: '2025-02-03' });
  });

  it('reads a waiver: the participant, not the guardian who signed', () => {
    expect(read(WAIVER)).toMatchObject({ docType: 'waiver', fullName: 'Noah Müller', dateOfBirth: '2015-07-21', documentDate: '2025-03-03' });
  });

  it('tolerates a label garbled by OCR', () => {
    expect(read('Dale of birth: 12/09/2014\nChlld\'s name: Ana Lopez')).toMatchObject({ dateOfBirth: '2014-12-09', fullName: 'Ana Lopez' });
    expect(read('D.O.B. 12/09/2014')).toMatchObject({ dateOfBirth: '2014-12-09' });
  });

  it('reads a row of labels over a row of values in order', () => {
    expect(read('Sex   Date of birth   Date filed\nF   12/09/2014   12/20/2014')).toMatchObject({ dateOfBirth: '2014-12-09' });
  });

  it('finds nothing where nothing is labelled', () => {
    expect(read('Hello there 12/09/2014, see you soon', null)).toEqual({
      docType: null,
      fullName: null,
      dateOfBirth: null,
      documentDate: null,
      confidence: null,
    });
  });

  it('reads the date a letter bears at its head', () => {
    const letter = 'Lincoln Elementary School\nMarch 4, 2025\nProof of residence\nThis letter confirms that the family resides at 4 Oak Road.';
    expect(read(letter)).toMatchObject({ docType: 'residency', documentDate: '2025-03-04' });
  });
});

describe('detectContentType', () => {
  it('is no answer when two types are named about equally', () => {
    expect(detectContentType('Waiver. Physical examination.')).toBeNull();
  });

  it('is no answer for text that names no type', () => {
    expect(detectContentType('Thank you for registering.')).toBeNull();
  });
});

describe('readName', () => {
  it.each([
    ['Ana Lopez 12/09/2014', 'Ana Lopez'],
    ['  : Jean-Luc de la Cruz   Sex F', 'Jean-Luc de la Cruz'],
    ['LOPEZ, ANA MARIA', 'LOPEZ, ANA MARIA'],
    ['Ana L0pez', 'Ana Lopez'],
    ['Mary J. Smith', 'Mary J. Smith'],
  ])('reads %s', (value, name) => {
    expect(readName(value)).toBe(name);
  });

  it.each([['Ana'], ['the child named above'], ['Agreement Form'], ['12/09/2014'], ['_____']])('finds no name in %s', (value) => {
    expect(readName(value)).toBeNull();
  });
});
