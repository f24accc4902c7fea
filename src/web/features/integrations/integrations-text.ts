import {
  DOC_TYPES,
  MAPPED_FIELD_LABELS,
  MAPPED_FIELDS,
  type TDeliveryOutcome,
  type TFormProvider,
  type TIntegration,
  type TMappedField,
  type TProviderAuthKind,
  type TQuestionMapping,
} from '../../../contract';

/** The shortest secret the server accepts (ZIntegrationPatch), and the length of a generated one. */
export const SECRET_MIN_LENGTH = 16;
export const GENERATED_SECRET_LENGTH = 32;

/** The placeholder of a token provider's webhook address, where its secret goes. */
export const TOKEN_PLACEHOLDER = '{token}';

/** Where a form builder takes the address and the secret, by how it proves a delivery is its own. */
export const AUTH_KIND_HELP: Record<TProviderAuthKind, (name: string) => string> = {
  signature: (name) => `${name} signs each delivery with the secret: paste the address as the webhook URL and the secret as its signing secret.`,
  handshake: (name) => `${name} sends the secret with each delivery: paste the address as the webhook URL and the secret as its handshake key.`,
  token: (name) =>
    `${name} cannot sign its deliveries, so the secret is part of the address: replace ${TOKEN_PLACEHOLDER} with the secret before pasting it into ${name}. Keep that address private, like a password.`,
};

/** The providers whose uploaded files need a key to download, and what that key is called there. */
export const DOWNLOAD_KEY_NAMES: Partial<Record<TFormProvider, string>> = {
  jotform: 'Jotform API key',
  typeform: 'Typeform personal access token',
};

/** Whether the Download key part is shown: for a provider that needs one, or one that has a key set (so it can be removed). */
export const showsDownloadKey = (integration: Pick<TIntegration, 'provider' | 'downloadKeySet'>): boolean =>
  DOWNLOAD_KEY_NAMES[integration.provider] !== undefined || integration.downloadKeySet;

export type IntegrationState = { label: string; tone: 'success' | 'secondary' | 'warning' };

/**
 * A provider's state at a glance: Not set up (no secret in force: every delivery is refused), Ready (a secret,
 * no delivery yet), Receiving (deliveries have come in).
 */
export function integrationState(integration: Pick<TIntegration, 'secretSource' | 'lastDeliveryAt'>): IntegrationState {
  if (integration.secretSource === 'none') return { label: 'Not set up', tone: 'warning' };
  if (integration.lastDeliveryAt === null) return { label: 'Ready', tone: 'secondary' };
  return { label: 'Receiving', tone: 'success' };
}

/** The line saying which secret checks the provider's deliveries. */
export function secretSummary(integration: Pick<TIntegration, 'secretSource' | 'secretHint'>): string {
  if (integration.secretSource === 'own') return `Own secret ${integration.secretHint ?? '••••'}`;
  if (integration.secretSource === 'default') return 'Uses the default secret (FORM_WEBHOOK_SECRET)';
  return 'No secret: every delivery is refused until a secret is set here (or FORM_WEBHOOK_SECRET is set on the server)';
}

/** The address to paste into the form builder: this site's origin and the provider's path. */
export const webhookAddress = (origin: string, webhookPath: string): string => `${origin.replace(/\/+$/, '')}${webhookPath}`;

const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A random secret of letters and digits (safe in a webhook address as it is), from the browser's
 * cryptographic random source; bytes that would favour some characters are drawn again.
 */
export function generateSecret(length = GENERATED_SECRET_LENGTH, fill: (bytes: Uint8Array) => void = (bytes) => crypto.getRandomValues(bytes)): string {
  const limit = 256 - (256 % SECRET_ALPHABET.length);
  let secret = '';
  const bytes = new Uint8Array(length * 2);
  while (secret.length < length) {
    fill(bytes);
    for (const byte of bytes) {
      if (byte >= limit) continue;
      secret += SECRET_ALPHABET[byte % SECRET_ALPHABET.length];
      if (secret.length === length) break;
    }
  }
  return secret;
}

/** The secret field's problem, in the server's words, or null when it may be saved. */
export function secretProblem(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return 'Enter the secret, or generate one.';
  if (trimmed.length < SECRET_MIN_LENGTH) return `The secret must be at least ${SECRET_MIN_LENGTH} characters`;
  if (trimmed.length > 200) return 'The secret must be at most 200 characters';
  return null;
}

export function downloadKeyProblem(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return 'Enter the download key.';
  if (trimmed.length > 500) return 'The download key must be at most 500 characters';
  return null;
}

/** The mapping choice that leaves a field to be found by its label. */
export const BY_LABEL = '';

/** The fields answered in words; one question may fill only one of them (the server refuses otherwise). */
export const TEXT_FIELDS: readonly TMappedField[] = MAPPED_FIELDS.filter((field) => !(DOC_TYPES as readonly string[]).includes(field));

export type MappingChoices = Record<TMappedField, string>;

export const mappingChoices = (mapping: TQuestionMapping): MappingChoices =>
  Object.fromEntries(MAPPED_FIELDS.map((field) => [field, mapping[field] ?? BY_LABEL])) as MappingChoices;

export const mappingFromChoices = (choices: MappingChoices): TQuestionMapping =>
  Object.fromEntries(MAPPED_FIELDS.flatMap((field) => (choices[field] === BY_LABEL ? [] : [[field, choices[field]]])));

/** Each field answered in words whose question is already chosen for an earlier one, with the message the server would give. */
export function mappingProblems(choices: MappingChoices): Partial<Record<TMappedField, string>> {
  const problems: Partial<Record<TMappedField, string>> = {};
  const firstFieldOf = new Map<string, TMappedField>();
  for (const field of TEXT_FIELDS) {
    const key = choices[field];
    if (key === BY_LABEL) continue;
    const earlier = firstFieldOf.get(key);
    if (earlier === undefined) firstFieldOf.set(key, field);
    else problems[field] = `The same question is chosen for “${MAPPED_FIELD_LABELS[earlier]}”: choose a different one.`;
  }
  return problems;
}

export const OUTCOME_LABELS: Record<TDeliveryOutcome, string> = {
  stored: 'Stored',
  duplicate: 'Duplicate',
  refused: 'Refused',
  failed: 'Failed',
};

/** What the Error column says when a refused or failed delivery kept no words of its own. */
export function deliveryError(delivery: { outcome: TDeliveryOutcome; status: number; error: string | null }): string | null {
  if (delivery.error) return delivery.error;
  if (delivery.outcome === 'refused') return `Refused (HTTP ${delivery.status})`;
  if (delivery.outcome === 'failed') return `Failed on our side (HTTP ${delivery.status})`;
  return null;
}

export const documentCount = (count: number): string => `${count} document${count === 1 ? '' : 's'}`;
