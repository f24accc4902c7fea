/**
 * A Formstack webhook delivery in the shapes of Formstack's webhook examples
 * (https://developers.formstack.com/docs/webhook-examples): fields posted by name (the default), with their
 * field types ("Contact Form Example with Field Types") as JSON, or without them URL-encoded (a field of
 * parts written "first = …\nlast = …"). The webhook's Handshake Key is sent as `HandshakeKey`. The form asks
 * the player's name (a name field), date of birth (a date field, as the form displays it), division, the
 * parent's e-mail, and the birth certificate (a file field: a link to the file).
 */
export type FormstackFixture = {
  uniqueId: string;
  /** Where the file is served from (formstack.com; a local server in tests). */
  fileOrigin: string;
  handshakeKey: string;
};

export function formstackJsonDelivery(fixture: FormstackFixture): { body: Buffer; headers: Record<string, string> } {
  const payload = {
    FormID: '5432109',
    'Player Name': { first: 'Mae', last: 'Jemison', field_type: 'name' },
    'Player Date of Birth': { value: 'Oct 17, 2015', field_type: 'datetime' },
    Division: { value: 'A', field_type: 'select' },
    'Parent/Guardian Email': { value: 'dorothy.jemison@example.org', field_type: 'email' },
    'Birth Certificate': { value: `${fixture.fileOrigin}/admin/download/file/183729114`, field_type: 'file' },
    UniqueID: fixture.uniqueId,
    HandshakeKey: fixture.handshakeKey,
  };
  return { body: Buffer.from(JSON.stringify(payload)), headers: { 'content-type': 'application/json' } };
}

export function formstackFormDelivery(fixture: FormstackFixture): { body: Buffer; headers: Record<string, string> } {
  const form = new URLSearchParams([
    ['FormID', '5432109'],
    ['Player Name', 'first = Mae\nlast = Jemison'],
    ['Player Date of Birth', '10/17/2015'],
    ['Division', 'A'],
    ['Parent/Guardian Email', 'dorothy.jemison@example.org'],
    ['Birth Certificate', `${fixture.fileOrigin}/admin/download/file/183729114`],
    ['UniqueID', fixture.uniqueId],
    ['HandshakeKey', fixture.handshakeKey],
  ]);
  return { body: Buffer.from(form.toString()), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
}
