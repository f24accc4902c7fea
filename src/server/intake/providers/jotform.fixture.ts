import { randomBytes } from 'node:crypto';

/**
 * A Jotform webhook delivery as Jotform posts it (https://www.jotform.com/help/245-how-to-setup-a-webhook-with-jotform/):
 * multipart/form-data with the submission's metadata, `rawRequest` (the form as submitted, JSON) and `pretty`
 * ("Label:answer, …", uploads last as their file names). The form asks a full name (one question, first and
 * last parts), a date of birth (month, day, year parts), the division, the parent's name, e-mail and phone,
 * and a birth certificate upload; the files are links under `birthCertificate`, declared in `temp_upload`.
 * The secret is the token of the webhook address: Jotform does not sign.
 */
export type JotformFixture = {
  submissionId: string;
  /** Where the upload is served from (Jotform's own `https://www.jotform.com`; a local server in tests). */
  fileOrigin: string;
  player?: { first: string; last: string };
  birthDate?: { month: string; day: string; year: string };
  division?: string;
};

export function jotformDelivery(fixture: JotformFixture): { contentType: string; body: Buffer; rawRequest: Record<string, unknown> } {
  const formId = '251234567890123';
  const player = fixture.player ?? { first: 'Mae', last: 'Jemison' };
  const birthDate = fixture.birthDate ?? { month: '10', day: '17', year: '2015' };
  const division = fixture.division ?? 'AA';
  const fileUrl = `${fixture.fileOrigin}/uploads/leagueregistrar/${formId}/${fixture.submissionId}/Birth%20certificate%20%E2%80%93%20Mae.pdf`;
  const rawRequest = {
    slug: `submit/${formId}`,
    jsExecutionTracker: 'build-date-1732271172685=>init-started:1732615894703=>onsubmit-fired:1732615897940',
    submitSource: 'form',
    buildDate: '1732271172685',
    uploadServerUrl: 'https://upload.jotform.com/upload',
    eventObserver: '1',
    q3_playerName: { first: player.first, last: player.last },
    q4_playerDate: birthDate,
    q5_division: division,
    q6_parentguardianName: { first: 'Dorothy', last: 'Jemison' },
    q7_parentguardianEmail: 'dorothy.jemison@example.org',
    q8_parentguardianPhone: { full: '(555) 555-0100' },
    q10_anythingElse: '',
    event_id: `1732615894703_${formId}_FE1smSr`,
    timeToSubmit: '41',
    temp_upload: { q9_birthCertificate: ['Birth certificate – Mae.pdf#jotformfs-e4f4ece4d0a90#01940839-37f4-7a46-9b4e-71107f08774a'] },
    file_server: 'jotformfs-e4f4ece4d0a90#01940839-37f4-7a46-9b4e-71107f08774a',
    validatedNewRequiredFieldIDs: '{"new":1}',
    path: `/submit/${formId}`,
    birthCertificate: [fileUrl],
  };
  const pretty = [
    `Player name:${player.first} ${player.last}`,
    `Player date of birth:${birthDate.month} ${birthDate.day} ${birthDate.year}`,
    `Division:${division}`,
    'Parent/guardian name:Dorothy Jemison',
    'Parent/guardian e-mail:dorothy.jemison@example.org',
    'Parent/guardian phone:(555) 555-0100',
    'Birth certificate:Birth certificate – Mae.pdf',
  ].join(', ');
  const fields: Array<[string, string]> = [
    ['action', ''],
    ['webhookURL', 'https://clearbase.example/api/intake/jotform/{token}'],
    ['username', 'leagueregistrar'],
    ['formID', formId],
    ['type', 'WEB'],
    ['customParams', ''],
    ['product', ''],
    ['formTitle', 'Spring registration'],
    ['customTitle', ''],
    ['submissionID', fixture.submissionId],
    ['event', ''],
    ['documentID', ''],
    ['teamID', ''],
    ['subject', ''],
    ['isSilent', ''],
    ['customBody', ''],
    ['rawRequest', JSON.stringify(rawRequest)],
    ['fromTable', ''],
    ['appID', ''],
    ['pretty', pretty],
    ['unread', ''],
    ['parent', ''],
    ['ip', '203.0.113.7'],
  ];
  const boundary = `------------------------${randomBytes(12).toString('base64url')}`;
  const parts = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'utf8'),
    rawRequest,
  };
}
