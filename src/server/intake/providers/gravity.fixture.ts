import type { ProviderRequest } from './provider';

/**
 * A Gravity Forms entry as the Webhooks Add-On posts it with Request Format JSON and Request Body
 * "All Fields" (https://docs.gravityforms.com/triggering-webhooks-form-submissions/): the entry object
 * (https://docs.gravityforms.com/entry-object/) with each answer under its field id. The form here: 1 Name
 * (1.3 first, 1.6 last), 2 Date of birth, 3 Division, 4 Season, 5 Email, 6 Address (6.1 street … 6.6
 * country), 7 a single File Upload, 8 a multi-file File Upload (a JSON array of links, as text), 9 a Website.
 * For tests: the file links are the caller's (the WordPress site's own uploads folder in real life).
 */

export type GravityFixtureOptions = {
  entryId?: number | string;
  player?: { first?: string; last?: string; birthDate?: string };
  season?: string;
  division?: string;
  /** The link of field 7 (single upload); '' when nothing was uploaded. */
  birthCertificate?: string;
  /** The links of field 8 (multi-file upload). */
  residency?: string[];
};

const SITE = 'https://league.example.org';

export function gravityEntry(options: GravityFixtureOptions = {}): Record<string, unknown> {
  return {
    id: String(options.entryId ?? 352),
    form_id: '3',
    post_id: null,
    date_created: '2025-03-02 17:04:11',
    date_updated: '2025-03-02 17:04:11',
    is_starred: 0,
    is_read: 0,
    ip: '203.0.113.9',
    source_url: `${SITE}/register/`,
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    currency: 'USD',
    payment_status: null,
    payment_date: null,
    payment_amount: null,
    payment_method: '',
    transaction_id: null,
    is_fulfilled: null,
    created_by: '1',
    transaction_type: null,
    status: 'active',
    '1.2': '',
    '1.3': options.player?.first ?? 'Ada',
    '1.4': '',
    '1.6': options.player?.last ?? 'Lovelace',
    '1.8': '',
    '2': options.player?.birthDate ?? '2015-12-10',
    '3': options.division ?? 'AA',
    '4': options.season ?? '2025',
    '5': 'ada.parent@example.org',
    '6.1': '12 St James Square',
    '6.2': '',
    '6.3': 'London',
    '6.4': '',
    '6.5': 'SW1Y 4JH',
    '6.6': 'United Kingdom',
    '7': options.birthCertificate ?? `${SITE}/wp-content/uploads/gravity_forms/3-9f86d081884c7d659a2feaa0c55ad015/2025/03/ada-birth.pdf`,
    '8': JSON.stringify(options.residency ?? [`${SITE}/wp-content/uploads/gravity_forms/3-9f86d081884c7d659a2feaa0c55ad015/2025/03/utility-bill.pdf`]),
    '9': 'https://ada.example.org/about',
  };
}

/** The delivery as Clearbase receives it at `/api/intake/gravity/{token}`. */
export function gravityRequest(entry: Record<string, unknown>, token: string | undefined): ProviderRequest {
  return { rawBody: Buffer.from(JSON.stringify(entry), 'utf8'), contentType: 'application/json', headers: {}, token };
}
