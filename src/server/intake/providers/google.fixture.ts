import { signBody } from '../form/form-webhook';
import type { GoogleDelivery } from './google';
import type { ProviderRequest } from './provider';

/**
 * A Google Forms response as scripts/google-forms/clearbase.gs posts it: one answer per item of
 * FormResponse.getItemResponses() (https://developers.google.com/apps-script/reference/forms/form-response),
 * keyed by Item.getId() and labelled by Item.getTitle(); a file-upload item's Drive files inline in base64.
 * For tests: the player's answers and the files are the caller's to choose.
 */

export type GoogleFixtureFile = { filename: string; mimeType: string; content: Buffer };

export type GoogleFixtureOptions = {
  responseId?: string;
  player?: { firstName?: string; lastName?: string; birthDate?: string };
  season?: string;
  division?: string;
  guardianEmail?: string;
  /** Files of the "Birth certificate" question. */
  birthCertificate?: GoogleFixtureFile[];
  /** Files of the "Proof of residency" question. */
  residency?: GoogleFixtureFile[];
};

export function googleDelivery(options: GoogleFixtureOptions = {}): GoogleDelivery {
  const inline = (files: GoogleFixtureFile[] = []) => files.map((file) => ({ filename: file.filename, mimeType: file.mimeType, contentBase64: file.content.toString('base64') }));
  return {
    responseId: options.responseId ?? '2_ABaOnud1x9Vb3kQy5sXq2Zl0cVw',
    timestamp: '2025-03-02T17:04:11.512Z',
    answers: [
      { key: '1093417281', label: 'Player first name', value: options.player?.firstName ?? 'Ada', files: [] },
      { key: '1093417282', label: 'Player last name', value: options.player?.lastName ?? 'Lovelace', files: [] },
      // A Date item answers YYYY-MM-DD.
      { key: '1093417283', label: 'Player date of birth', value: options.player?.birthDate ?? '2015-12-10', files: [] },
      { key: '1093417284', label: 'Division', value: options.division ?? 'AA', files: [] },
      { key: '1093417285', label: 'Season', value: options.season ?? '2025', files: [] },
      { key: '1093417286', label: 'Parent/guardian e-mail', value: options.guardianEmail ?? 'ada.parent@example.org', files: [] },
      // A checkbox item's choices, joined by the script.
      { key: '1093417287', label: 'Positions played', value: 'Forward, Goalie', files: [] },
      { key: '1093417288', label: 'Birth certificate', value: null, files: inline(options.birthCertificate) },
      { key: '1093417289', label: 'Proof of residency', value: null, files: inline(options.residency) },
    ],
  };
}

/** The delivery as Clearbase receives it: the JSON body, signed with `secret` (or with a given header). */
export function googleRequest(delivery: GoogleDelivery, secret: string, signatureHeader?: string): ProviderRequest {
  const rawBody = Buffer.from(JSON.stringify(delivery), 'utf8');
  return {
    rawBody,
    contentType: 'application/json; charset=utf-8',
    headers: { 'x-clearbase-signature': signatureHeader ?? signBody(secret, rawBody) },
    token: undefined,
  };
}
