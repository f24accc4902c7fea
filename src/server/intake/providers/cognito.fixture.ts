import type { ProviderRequest } from './provider';

/**
 * A Cognito Forms entry as "Post JSON data to a website" posts it
 * (https://www.cognitoforms.com/support/66/data-integration/webhooks): fields named after their labels in
 * PascalCase, a Name field as `{ First, Last, FirstAndLast, … }`, a date as YYYY-MM-DD, a File Upload field
 * as an array of `{ ContentType, Id, Name, Size, File }` (Cognito's FileDataRef,
 * https://schemas.apis.io/schemas/cognito-forms/file-data-ref/), and the entry's
 * `Id`, `Entry` and `Form` details. For tests: the player's answers and the file links are the caller's.
 */

export type CognitoFixtureFile = { name: string; contentType: string; url: string; size?: number };

export type CognitoFixtureOptions = {
  entryNumber?: number;
  player?: { first?: string; last?: string; birthDate?: string };
  season?: string;
  division?: string;
  guardianEmail?: string;
  birthCertificate?: CognitoFixtureFile[];
  residency?: CognitoFixtureFile[];
};

const fileRef = (file: CognitoFixtureFile, index: number) => ({
  ContentType: file.contentType,
  Id: `F-9xq2bEkL0mFyS4vTn3Rw${index}`,
  IsEncrypted: false,
  Name: file.name,
  Size: file.size ?? 1024,
  StorageUrl: null,
  File: file.url,
});

export function cognitoEntry(options: CognitoFixtureOptions = {}): Record<string, unknown> {
  const number = options.entryNumber ?? 27;
  const first = options.player?.first ?? 'Ada';
  const last = options.player?.last ?? 'Lovelace';
  return {
    Form: { Id: '14', InternalName: 'PlayerRegistration', Name: 'Player Registration' },
    $version: 10,
    $etag: 'W/"datetime\'2025-03-02T17%3A04%3A11.5120000Z\'"',
    PlayerName: { First: first, Last: last, FirstAndLast: `${first} ${last}`, Middle: null, MiddleInitial: null, Prefix: null, Suffix: null },
    PlayerDateOfBirth: options.player?.birthDate ?? '2015-12-10',
    Division: options.division ?? 'AA',
    Season: options.season ?? '2025',
    ParentGuardianName: { First: 'Annabella', Last: 'Byron', FirstAndLast: 'Annabella Byron', Middle: null, MiddleInitial: null, Prefix: null, Suffix: null },
    ParentGuardianEmail: options.guardianEmail ?? 'ada.parent@example.org',
    ParentGuardianPhone: '(555) 010-2030',
    HomeAddress: { Line1: '12 St James Square', Line2: null, City: 'London', State: null, PostalCode: 'SW1Y 4JH', Country: 'United Kingdom', FullAddress: '12 St James Square, London SW1Y 4JH, United Kingdom' },
    PhotoConsent: true,
    PositionsPlayed: ['Forward', 'Goalie'],
    BirthCertificate: (options.birthCertificate ?? []).map(fileRef),
    ProofOfResidency: (options.residency ?? []).map(fileRef),
    MedicalDetails: { Allergies: 'None', MedicalForm: [] },
    Siblings: [{ Name: { First: 'Byron', Last: 'King', FirstAndLast: 'Byron King' } }],
    Id: `14-${number}`,
    Entry: {
      AdminLink: `https://www.cognitoforms.com/Clearbase/14/entries/${number}`,
      DateCreated: '2025-03-02T17:04:11.512Z',
      DateSubmitted: '2025-03-02T17:04:11.512Z',
      DateUpdated: '2025-03-02T17:04:11.512Z',
      Number: number,
      Status: 'Submitted',
      Version: 1,
    },
  };
}

/** The delivery as Clearbase receives it at `/api/intake/cognito/{token}`. */
export function cognitoRequest(entry: Record<string, unknown>, token: string | undefined): ProviderRequest {
  return { rawBody: Buffer.from(JSON.stringify(entry), 'utf8'), contentType: 'application/json; charset=utf-8', headers: {}, token };
}
