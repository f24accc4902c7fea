import type { ProviderRequest } from './provider';

/**
 * A Wufoo entry as its WebHook integration posts it (http://help.wufoo.com/articles/en_US/SurveyMonkeyArticleType/Webhooks):
 * urlencoded, answers under their field ids, `HandshakeKey`, `EntryId`, `DateCreated`, `CreatedBy`, and with
 * "Include Field and Form Structures" ticked, `FieldStructure` and `FormStructure` as JSON in the shape of
 * the Fields and Forms APIs (https://wufoo.github.io/docs/): a Name field (`shortname`) whose parts are
 * Field1 (First) and Field2 (Last), the field sharing its first part's id; a File Upload answering
 * "name (link)" with the link alone in `<id>-url`; a date YYYY-MM-DD. For tests: links and key are the caller's.
 */

export type WufooFixtureOptions = {
  entryId?: string;
  handshakeKey?: string;
  /** Whether "Include Field and Form Structures" is ticked. */
  structures?: boolean;
  player?: { first?: string; last?: string; birthDate?: string };
  season?: string;
  division?: string;
  /** The link of the "Birth certificate" upload (Field210); undefined when nothing was uploaded. */
  birthCertificate?: { name: string; url: string };
};

export const WUFOO_FORM_HASH = 'z1x2c3v4b5n6m7';

const FIELDS = [
  { Title: 'Player name', Instructions: '', IsRequired: '1', ClassNames: '', DefaultVal: '', Page: '1', Type: 'shortname', ID: 'Field1', SubFields: [{ DefaultVal: '', ID: 'Field1', Label: 'First' }, { DefaultVal: '', ID: 'Field2', Label: 'Last' }] },
  { Title: 'Player date of birth', Instructions: '', IsRequired: '1', ClassNames: '', DefaultVal: '', Page: '1', Type: 'date', ID: 'Field3' },
  { Title: 'Division', Instructions: '', IsRequired: '1', ClassNames: '', DefaultVal: '', Page: '1', Type: 'select', ID: 'Field4', Choices: [{ Label: 'AAA' }, { Label: 'AA' }, { Label: 'A' }] },
  { Title: 'Season', Instructions: '', IsRequired: '1', ClassNames: '', DefaultVal: '', Page: '1', Type: 'text', ID: 'Field5' },
  { Title: 'Parent/guardian name', Instructions: '', IsRequired: '0', ClassNames: '', DefaultVal: '', Page: '1', Type: 'shortname', ID: 'Field6', SubFields: [{ DefaultVal: '', ID: 'Field6', Label: 'First' }, { DefaultVal: '', ID: 'Field7', Label: 'Last' }] },
  { Title: 'Parent/guardian e-mail', Instructions: '', IsRequired: '0', ClassNames: '', DefaultVal: '', Page: '1', Type: 'email', ID: 'Field8' },
  { Title: 'Positions played', Instructions: '', IsRequired: '0', ClassNames: '', DefaultVal: '', Page: '1', Type: 'checkbox', ID: 'Field108', SubFields: [{ DefaultVal: '0', ID: 'Field108', Label: 'Forward' }, { DefaultVal: '0', ID: 'Field109', Label: 'Defence' }, { DefaultVal: '0', ID: 'Field110', Label: 'Goalie' }] },
  { Title: 'Birth certificate', Instructions: '', IsRequired: '0', ClassNames: '', DefaultVal: '', Page: '1', Type: 'file', ID: 'Field210' },
];

export function wufooFields(options: WufooFixtureOptions = {}): Record<string, string> {
  const fields: Record<string, string> = {
    Field1: options.player?.first ?? 'Ada',
    Field2: options.player?.last ?? 'Lovelace',
    Field3: options.player?.birthDate ?? '2015-12-10',
    Field4: options.division ?? 'AA',
    Field5: options.season ?? '2025',
    Field6: 'Annabella',
    Field7: 'Byron',
    Field8: 'ada.parent@example.org',
    Field108: 'Forward',
    Field109: '',
    Field110: 'Goalie',
    Field210: options.birthCertificate ? `${options.birthCertificate.name} (${options.birthCertificate.url})` : '',
    CreatedBy: 'public',
    DateCreated: '2025-03-02 17:04:11',
    EntryId: options.entryId ?? '12',
    IP: '203.0.113.9',
  };
  if (options.birthCertificate) fields['Field210-url'] = options.birthCertificate.url;
  if (options.handshakeKey !== undefined) fields['HandshakeKey'] = options.handshakeKey;
  if (options.structures ?? true) {
    fields['FieldStructure'] = JSON.stringify({ Fields: FIELDS });
    fields['FormStructure'] = JSON.stringify({ Name: 'Player Registration', Description: '', Url: 'player-registration', Email: '', IsPublic: '1', Language: 'english', Hash: WUFOO_FORM_HASH });
  }
  return fields;
}

/** The delivery as Clearbase receives it at `/api/intake/wufoo`. */
export function wufooRequest(fields: Record<string, string>): ProviderRequest {
  return { rawBody: Buffer.from(new URLSearchParams(fields).toString(), 'utf8'), contentType: 'application/x-www-form-urlencoded', headers: {}, token: undefined };
}
