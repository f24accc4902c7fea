import { createHmac } from 'node:crypto';

/**
 * A Tally webhook delivery in the shape of Tally's example webhook event (https://tally.so/help/webhooks),
 * signed as Tally signs it: `Tally-Signature`, the base64 HMAC-SHA256 of the JSON payload under the signing
 * secret. The form asks the player's name in one question (split into first and last), the date of birth
 * (INPUT_DATE, YYYY-MM-DD), the division (a DROPDOWN, answered with the id of its option), the season (a
 * MULTIPLE_CHOICE, by its name), the parent's e-mail, and the birth certificate (FILE_UPLOAD, a list of
 * `{ id, name, url, mimeType, size }`).
 */
export type TallyFixture = {
  responseId: string;
  /** Where Tally's storage serves the file (`https://storage.tally.so`; a local server in tests). */
  fileOrigin: string;
  /** The label of the date question, to try a label the defaults do not know. */
  birthDateLabel?: string;
  season?: string;
};

export function tallyDelivery(fixture: TallyFixture, secret: string): { body: Buffer; headers: Record<string, string> } {
  const payload = {
    eventId: 'a4cb511e-d513-4fa5-baee-b815d718dfd1',
    eventType: 'FORM_RESPONSE',
    createdAt: '2025-03-01T15:00:21.889Z',
    data: {
      responseId: fixture.responseId,
      submissionId: fixture.responseId,
      respondentId: 'dwQKYm',
      formId: 'VwbNEw',
      formName: 'Spring registration',
      createdAt: '2025-03-01T15:00:21.000Z',
      fields: [
        { key: 'question_mVGEg3', label: 'Player name', type: 'INPUT_TEXT', value: 'Mary Ann Jemison' },
        { key: 'question_nPQEW0', label: fixture.birthDateLabel ?? 'Player date of birth', type: 'INPUT_DATE', value: '2015-10-17' },
        {
          key: 'question_3EKz4n',
          label: 'Division',
          type: 'DROPDOWN',
          value: ['e2ad1e8a-5bd0-4f3d-9c5e-8c8b1d0f6e31'],
          options: [
            { id: '0b1b4e5a-7a5e-4d1c-8c5f-2a4f6d7e8b90', text: 'AAA' },
            { id: 'e2ad1e8a-5bd0-4f3d-9c5e-8c8b1d0f6e31', text: 'AA' },
            { id: '6c8f0e1b-3d2a-4b5c-9e7f-1a2b3c4d5e6f', text: 'A' },
          ],
        },
        {
          key: 'question_w4Q9r1',
          label: 'Season',
          type: 'MULTIPLE_CHOICE',
          value: 'f3b6a2c1-4d5e-4f60-8a9b-0c1d2e3f4a5b',
          options: [{ id: 'f3b6a2c1-4d5e-4f60-8a9b-0c1d2e3f4a5b', text: fixture.season ?? 'Fall Ball 2025' }],
        },
        { key: 'question_wM1jRA', label: 'Parent/guardian e-mail', type: 'INPUT_EMAIL', value: 'dorothy.jemison@example.org' },
        {
          key: 'question_3jWjrl',
          label: 'Birth certificate',
          type: 'FILE_UPLOAD',
          value: [
            {
              id: 'Bpyb8M',
              name: 'birth-certificate.pdf',
              url: `${fixture.fileOrigin}/private/birth-certificate.pdf?id=Bpyb8M&accessToken=tk_9f2c&signature=5d1e`,
              mimeType: 'application/pdf',
              size: 1024,
            },
          ],
        },
      ],
    },
  };
  const json = JSON.stringify(payload);
  return {
    body: Buffer.from(json),
    headers: { 'content-type': 'application/json', 'tally-signature': createHmac('sha256', secret).update(json).digest('base64') },
  };
}
