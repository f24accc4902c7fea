import { createHmac } from 'node:crypto';

/**
 * A Typeform webhook delivery in the shape of Typeform's example payload
 * (https://www.typeform.com/developers/webhooks/example-payload/), signed as Typeform signs
 * (https://www.typeform.com/developers/webhooks/secure-your-webhooks/): `Typeform-Signature: sha256=` and the
 * base64 HMAC-SHA256 of the raw body under the webhook's secret. The form asks the player's first and last
 * name, date of birth (a date question, answered YYYY-MM-DD), division (a dropdown), the parent's e-mail
 * and phone, and the birth certificate (a file upload, answered with a `file_url` on the Responses API).
 */
export type TypeformFixture = {
  token: string;
  /** Where the Responses API serves files (`https://api.typeform.com`; a local server in tests). */
  fileOrigin: string;
  birthDate?: string;
  /** The title of the date question, to try a label the defaults do not know. */
  birthDateTitle?: string;
};

export function typeformDelivery(fixture: TypeformFixture, secret: string): { body: Buffer; headers: Record<string, string> } {
  const formId = 'lT4Z3j';
  const fields = [
    { id: 'JwWggjAKtOkA', title: 'Player first name', type: 'short_text', ref: 'player_first_name' },
    { id: 'Kq1YpD3uhJx0', title: 'Player last name', type: 'short_text', ref: 'player_last_name' },
    { id: 'KoJxDM3c6x8h', title: fixture.birthDateTitle ?? 'Player date of birth', type: 'date', ref: 'player_birth_date' },
    { id: 'PNe8ZKBK8C2Q', title: 'Division', type: 'dropdown', ref: 'division' },
    { id: 'SMEUb7VJz92Q', title: 'Parent/guardian e-mail', type: 'email', ref: 'guardian_email' },
    { id: 'Fr5kYS2sZzhA', title: 'Parent/guardian phone', type: 'phone_number', ref: 'guardian_phone' },
    { id: 'yLcdSkHuUa9B', title: 'Birth certificate', type: 'file_upload', ref: 'birth_certificate' },
  ];
  const field = (index: number) => {
    const { id, type, ref } = fields[index] ?? { id: '', type: '', ref: '' };
    return { id, type, ref };
  };
  const payload = {
    event_id: '01HB3Q9W5JYV2C8F7ZK1N4TQ6P',
    event_type: 'form_response',
    form_response: {
      form_id: formId,
      token: fixture.token,
      landed_at: '2025-03-01T18:07:02Z',
      submitted_at: '2025-03-01T18:17:02Z',
      hidden: { source: 'league-site' },
      definition: { id: formId, title: 'Spring registration', fields: fields.map((f) => ({ ...f, allow_multiple_selections: false, allow_other_choice: false })) },
      answers: [
        { type: 'text', text: 'Mae', field: field(0) },
        { type: 'text', text: 'Jemison', field: field(1) },
        { type: 'date', date: fixture.birthDate ?? '2015-10-17', field: field(2) },
        { type: 'choice', choice: { id: 'k9pQ', label: 'AA', ref: 'division-aa' }, field: field(3) },
        { type: 'email', email: 'dorothy.jemison@example.org', field: field(4) },
        { type: 'phone_number', phone_number: '+15555550100', field: field(5) },
        {
          type: 'file_url',
          file_url: `${fixture.fileOrigin}/forms/${formId}/responses/${fixture.token}/fields/yLcdSkHuUa9B/files/4f1c2d-birth-certificate.pdf`,
          field: field(6),
        },
      ],
    },
  };
  const body = Buffer.from(JSON.stringify(payload));
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'typeform-signature': `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`,
    },
  };
}
