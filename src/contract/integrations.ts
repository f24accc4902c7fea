import { z } from 'zod';

/**
 * Form builders: the registration-form services leagues use, each posting to `POST /api/intake/{provider}`
 * in its own shape, with its own proof that the delivery is genuine. Settings → Integrations sets each one's
 * secret, download key and question mapping, and lists its last deliveries.
 */
export const FORM_PROVIDERS = ['jotform', 'typeform', 'google', 'tally', 'formstack', 'cognito', 'gravity', 'wufoo'] as const;
export const ZFormProvider = z.enum(FORM_PROVIDERS, { error: `Form builder must be one of ${FORM_PROVIDERS.join(', ')}` });
export type TFormProvider = z.infer<typeof ZFormProvider>;

export const FORM_PROVIDER_NAMES: Record<TFormProvider, string> = {
  jotform: 'Jotform',
  typeform: 'Typeform',
  google: 'Google Forms',
  tally: 'Tally',
  formstack: 'Formstack',
  cognito: 'Cognito Forms',
  gravity: 'Gravity Forms',
  wufoo: 'Wufoo',
};

/**
 * How a provider proves a delivery is its own:
 * - `signature`: an HMAC of the raw body in a header, computed with the secret (Typeform, Tally, the Google
 *   Apps Script);
 * - `handshake`: the secret sent as a field of the body (Formstack and Wufoo's handshake key);
 * - `token`: the provider cannot sign, so the secret is a token in the webhook address (Jotform, Cognito,
 *   Gravity Forms), compared in constant time and never logged.
 */
export const PROVIDER_AUTH_KINDS = ['signature', 'handshake', 'token'] as const;
export type TProviderAuthKind = (typeof PROVIDER_AUTH_KINDS)[number];

/**
 * The form fields a provider's questions map to. `playerName` is a single "Player name" question, split
 * into first and last name. The four document types are file-upload questions.
 */
export const MAPPED_FIELDS = [
  'playerFirstName',
  'playerLastName',
  'playerName',
  'playerBirthDate',
  'division',
  'season',
  'guardianName',
  'guardianEmail',
  'guardianPhone',
  'birth_certificate',
  'residency',
  'medical',
  'waiver',
] as const;
export const ZMappedField = z.enum(MAPPED_FIELDS);
export type TMappedField = z.infer<typeof ZMappedField>;

/** The question label each field is found by when no mapping is set (compared case- and punctuation-insensitively). */
export const MAPPED_FIELD_LABELS: Record<TMappedField, string> = {
  playerFirstName: 'Player first name',
  playerLastName: 'Player last name',
  playerName: 'Player name',
  playerBirthDate: 'Player date of birth',
  division: 'Division',
  season: 'Season',
  guardianName: 'Parent/guardian name',
  guardianEmail: 'Parent/guardian e-mail',
  guardianPhone: 'Parent/guardian phone',
  birth_certificate: 'Birth certificate',
  residency: 'Proof of residency',
  medical: 'Medical form',
  waiver: 'Liability waiver',
};

/** A question of a provider's form, as its last delivery named it: `key` is the provider's own id for it. */
export const ZProviderQuestion = z.object({ key: z.string(), label: z.string() });
export type TProviderQuestion = z.infer<typeof ZProviderQuestion>;

/** Field → question key. A field left out is found by its label. */
export const ZQuestionMapping = z.partialRecord(ZMappedField, z.string().min(1).max(200));
export type TQuestionMapping = z.infer<typeof ZQuestionMapping>;

/** GET /api/integrations: one entry per provider. */
export const ZIntegration = z.object({
  provider: ZFormProvider,
  name: z.string(),
  authKind: z.enum(PROVIDER_AUTH_KINDS),
  /** The path to give the provider, without the host; for `token` providers it ends with the token placeholder `{token}`. */
  webhookPath: z.string(),
  /** Which secret verifies deliveries: this provider's own, the default FORM_WEBHOOK_SECRET, or none (deliveries are refused). */
  secretSource: z.enum(['own', 'default', 'none']),
  /** The last characters of the provider's own secret ('••••a1b2'), when one is set. */
  secretHint: z.string().nullable(),
  /** Whether a download key (for example Jotform's API key, Typeform's personal token) is set for the provider's files. */
  downloadKeySet: z.boolean(),
  mapping: ZQuestionMapping,
  /** The questions of the last delivery received, offered as mapping choices. */
  lastQuestions: z.array(ZProviderQuestion),
  lastDeliveryAt: z.iso.datetime({ offset: true }).nullable(),
});
export type TIntegration = z.infer<typeof ZIntegration>;
export const ZIntegrations = z.object({ integrations: z.array(ZIntegration) });

/**
 * PATCH /api/integrations/{provider}: `secret: null` goes back to FORM_WEBHOOK_SECRET; `downloadKey: null`
 * removes the key; `mapping` replaces the whole mapping.
 */
export const ZIntegrationPatch = z
  .object({
    secret: z.string().trim().min(16, 'The secret must be at least 16 characters').max(200, 'The secret must be at most 200 characters').nullable().optional(),
    downloadKey: z.string().trim().min(1, 'The download key is empty').max(500, 'The download key must be at most 500 characters').nullable().optional(),
    mapping: ZQuestionMapping.optional(),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'Change at least one thing');
export type TIntegrationPatch = z.infer<typeof ZIntegrationPatch>;

export const ZProviderParams = z.object({ provider: ZFormProvider });

/** What became of one delivery: stored (at least one document recorded), duplicate (already received), refused (4xx), failed (our fault, 5xx). */
export const DELIVERY_OUTCOMES = ['stored', 'duplicate', 'refused', 'failed'] as const;
export type TDeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** One row of a provider's deliveries log, newest first. */
export const ZIntakeDelivery = z.object({
  id: z.uuid(),
  provider: ZFormProvider,
  receivedAt: z.iso.datetime({ offset: true }),
  outcome: z.enum(DELIVERY_OUTCOMES),
  /** The HTTP status the provider was answered. */
  status: z.number().int(),
  submissionId: z.string().nullable(),
  playerId: z.string().nullable(),
  playerName: z.string().nullable(),
  /** Documents recorded from it. */
  documents: z.number().int(),
  /** Why it was refused or failed, in words. */
  error: z.string().nullable(),
  /** The delivery this one replayed. */
  replayOf: z.uuid().nullable(),
  /** Whether its body is still kept, so it can be replayed. */
  replayable: z.boolean(),
});
export type TIntakeDelivery = z.infer<typeof ZIntakeDelivery>;
export const ZIntakeDeliveries = z.object({ deliveries: z.array(ZIntakeDelivery) });
export const ZDeliveryParams = z.object({ id: z.uuid('must be a delivery id') });

/** How many deliveries each provider's log keeps. */
export const DELIVERIES_KEPT = 100;

/** Where Clearbase's own registration form posts, without the host. */
export const FORM_WEBHOOK_PATH = '/api/intake/form';
/** The variable that sets the form webhook's secret on the server; where it is set, the screen cannot change it. */
export const FORM_WEBHOOK_SECRET_VARIABLE = 'FORM_WEBHOOK_SECRET';

/**
 * GET /api/integrations/form-webhook: the form webhook's address and which secret is in force, never the
 * secret itself. `environment`: FORM_WEBHOOK_SECRET is set and wins; `settings`: the secret kept (sealed) in the
 * settings, generated on first use and replaced by Rotate.
 */
export const ZFormWebhook = z.object({
  path: z.string(),
  source: z.enum(['environment', 'settings']),
  /** The variable that sets it when `source` is `environment`, else null. */
  variable: z.string().nullable(),
});
export type TFormWebhook = z.infer<typeof ZFormWebhook>;
/** POST /api/integrations/form-webhook/reveal, and /rotate (with the new secret). */
export const ZFormWebhookSecret = ZFormWebhook.extend({ secret: z.string() });
export type TFormWebhookSecret = z.infer<typeof ZFormWebhookSecret>;
