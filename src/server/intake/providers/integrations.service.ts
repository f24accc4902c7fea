import {
  DELIVERIES_KEPT,
  DOC_TYPES,
  FORM_PROVIDER_NAMES,
  FORM_PROVIDERS,
  MAPPED_FIELD_LABELS,
  type TFormProvider,
  type TIntakeDelivery,
  type TIntegration,
  type TIntegrationPatch,
  type TMappedField,
  type TProviderAuthKind,
  type TQuestionMapping,
} from '../../../contract';
import { recordAuditEvent, type Actor } from '../../audit';
import { sealSecret, type SealedSecret } from '../../platform/crypto/secret-box';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { lastDeliveryTimes, listDeliveries, type DeliveryListRow } from './deliveries.repository';
import { changeStoredIntegration, readStoredIntegration, type StoredIntegration } from './integration-settings';

/**
 * How each form builder proves a delivery is its own (contract: PROVIDER_AUTH_KINDS). A `token` provider
 * cannot sign, so its secret travels in the webhook address.
 */
export const PROVIDER_AUTH: Record<TFormProvider, TProviderAuthKind> = {
  jotform: 'token',
  typeform: 'signature',
  google: 'signature',
  tally: 'signature',
  formstack: 'handshake',
  cognito: 'token',
  gravity: 'token',
  wufoo: 'handshake',
};

/** The address a provider posts to, without the host; a token provider's ends with the `{token}` placeholder. */
export const webhookPathOf = (provider: TFormProvider): string =>
  PROVIDER_AUTH[provider] === 'token' ? `/api/intake/${provider}/{token}` : `/api/intake/${provider}`;

/** Shows which secret is set without giving it away: its last four characters. */
const secretHint = (secret: string) => `••••${secret.slice(-4)}`;

/** The fields answered in words (not file uploads): one question cannot be two of them. */
const TEXT_FIELDS = (Object.keys(MAPPED_FIELD_LABELS) as TMappedField[]).filter((field) => !(DOC_TYPES as readonly string[]).includes(field));

export type IntegrationsService = {
  /** Every form builder: how it is verified, its address, which secret is in force, its mapping and last delivery. Never a secret. */
  list(): Promise<{ integrations: TIntegration[] }>;
  /** Sets or clears the provider's own secret and download key (sealed), or replaces its mapping; audited, all in one transaction. */
  update(provider: TFormProvider, patch: TIntegrationPatch, actor: Actor): Promise<TIntegration>;
  /** The provider's last DELIVERIES_KEPT deliveries, newest first. */
  deliveries(provider: TFormProvider): Promise<{ deliveries: TIntakeDelivery[] }>;
};

export type IntegrationsServiceDeps = {
  db: Db;
  masterKey: Buffer;
  /** Whether FORM_WEBHOOK_SECRET is set, the secret of every provider without its own. Only whether: never the secret. */
  defaultSecretSet: boolean;
};

export function createIntegrationsService(deps: IntegrationsServiceDeps): IntegrationsService {
  const { db } = deps;

  const describe = (provider: TFormProvider, stored: StoredIntegration, lastDeliveryAt: Date | undefined): TIntegration => ({
    provider,
    name: FORM_PROVIDER_NAMES[provider],
    authKind: PROVIDER_AUTH[provider],
    webhookPath: webhookPathOf(provider),
    secretSource: stored.secret !== null ? 'own' : deps.defaultSecretSet ? 'default' : 'none',
    secretHint: stored.secret?.hint ?? null,
    downloadKeySet: stored.downloadKey !== null,
    mapping: stored.mapping,
    lastQuestions: stored.lastQuestions,
    lastDeliveryAt: lastDeliveryAt?.toISOString() ?? null,
  });

  return {
    async list() {
      const [times, stored] = await Promise.all([
        lastDeliveryTimes(db),
        Promise.all(FORM_PROVIDERS.map(async (provider) => ({ provider, settings: await readStoredIntegration(db, provider) }))),
      ]);
      return { integrations: stored.map(({ provider, settings }) => describe(provider, settings, times.get(provider))) };
    },

    async update(provider, patch, actor) {
      if (patch.mapping !== undefined) checkMapping(patch.mapping);
      const saved = await changeStoredIntegration(db, provider, async (before, tx) => {
        const next: StoredIntegration = {
          ...before,
          secret: nextSealed(before.secret, patch.secret, secretHint),
          downloadKey: nextSealed(before.downloadKey, patch.downloadKey, () => ''),
          mapping: patch.mapping ?? before.mapping,
        };
        // What changed, by name: never a secret or a key, not even its last characters.
        const detail: Record<string, unknown> = { provider };
        const secretChange = sealedChange(before.secret, patch.secret);
        if (secretChange) detail.secret = secretChange;
        const keyChange = sealedChange(before.downloadKey, patch.downloadKey);
        if (keyChange) detail.downloadKey = keyChange;
        const mappingChanged = patch.mapping === undefined ? [] : changedFields(before.mapping, patch.mapping);
        if (mappingChanged.length > 0) detail.mapping = mappingChanged;
        if (Object.keys(detail).length > 1) {
          await recordAuditEvent(tx, {
            actor: actor.principal,
            action: 'integration.updated',
            subjectType: 'settings',
            subjectId: `integration.${provider}`,
            detail,
            requestId: actor.requestId,
          });
        }
        return { next, result: next };
      });
      const times = await lastDeliveryTimes(db);
      return describe(provider, saved, times.get(provider));
    },

    async deliveries(provider) {
      const rows = await listDeliveries(db, provider, DELIVERIES_KEPT);
      return { deliveries: rows.map(toDelivery) };
    },
  };

  /** A secret left out keeps the stored one, `null` removes it, a value replaces it, sealed with the master key. */
  function nextSealed(current: SealedSecret | null, value: string | null | undefined, hint: (secret: string) => string): SealedSecret | null {
    if (value === undefined) return current;
    if (value === null) return null;
    return sealSecret(deps.masterKey, value, hint(value));
  }
}

function sealedChange(current: SealedSecret | null, value: string | null | undefined): 'set' | 'replaced' | 'removed' | undefined {
  if (value === undefined) return undefined;
  if (value === null) return current === null ? undefined : 'removed';
  return current === null ? 'set' : 'replaced';
}

function changedFields(before: TQuestionMapping, after: TQuestionMapping): TMappedField[] {
  return (Object.keys(MAPPED_FIELD_LABELS) as TMappedField[]).filter((field) => before[field] !== after[field]);
}

/**
 * A question is any key the provider may send (its questions change as the form is edited), but one question
 * cannot fill two fields answered in words: the player's first name is not also their last name.
 */
function checkMapping(mapping: TQuestionMapping): void {
  const problems: Array<{ path: string; message: string }> = [];
  const firstFieldOf = new Map<string, TMappedField>();
  for (const field of Object.keys(MAPPED_FIELD_LABELS) as TMappedField[]) {
    const key = mapping[field];
    if (key === undefined) continue;
    if (key.trim() === '') {
      problems.push({ path: `body.mapping.${field}`, message: `Choose a question for “${MAPPED_FIELD_LABELS[field]}”, or find it by its label` });
      continue;
    }
    if (!TEXT_FIELDS.includes(field)) continue;
    const earlier = firstFieldOf.get(key);
    if (earlier === undefined) firstFieldOf.set(key, field);
    else {
      problems.push({
        path: `body.mapping.${field}`,
        message: `The same question is chosen for “${MAPPED_FIELD_LABELS[earlier]}” and “${MAPPED_FIELD_LABELS[field]}”: choose a different question for one of them`,
      });
    }
  }
  if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems.map((problem) => problem.message).join('; '), problems);
}

/** A delivery row as the API shows it, the player named as the players table names them. */
export function toDelivery(row: DeliveryListRow): TIntakeDelivery {
  const playerName = [row.playerFirstName, row.playerLastName].filter((part): part is string => part !== null && part !== '').join(' ');
  return {
    id: row.id,
    provider: row.provider,
    receivedAt: row.receivedAt.toISOString(),
    outcome: row.outcome,
    status: row.status,
    submissionId: row.submissionId,
    playerId: row.playerId,
    playerName: playerName === '' ? null : playerName,
    documents: row.documents,
    error: row.error,
    replayOf: row.replayOf,
    replayable: row.bodyKey !== null,
  };
}
