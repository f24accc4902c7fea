import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DELIVERIES_KEPT,
  FORM_PROVIDER_NAMES,
  type TDeliveryOutcome,
  type TFormProvider,
  type TIntakeDelivery,
  type TProviderAuthKind,
  type TProviderQuestion,
} from '../../../contract';
import type { Storage } from '../../adapters/storage/port';
import { recordAuditEvent, type Actor } from '../../audit';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { toApiError } from '../../platform/http/error-mapping';
import { findSubmission, findSubmissionByExternalId, recordStagedSubmission, stagedKey, type IntakeResult, type SubmittedPlayer } from '../../pipeline';
import { findCurrentSeason, listSeasons } from '../../seasons';
import type { FilePolicy } from '../fetch-file';
import { fieldErrors, toSubmittedPlayer, ZReceivedFormFields } from '../form/form-webhook';
import { MAX_FILES } from '../form/multipart-session';
import { readSmallBody } from '../read-body';
import { stageSources, type FileSource } from '../stage-sources';
import { isDeliveryType } from './body-fields';
import { copyDeliveryBody, deleteDeliveryBodies, openDeliveryBody, sealDeliveryBody } from './delivery-bodies';
import { findDelivery, insertDelivery, trimDeliveries, type DeliveryRow, type NewDelivery } from './deliveries.repository';
import { noteQuestions, readCredentials, type ProviderCredentials } from './integration-settings';
import { toDelivery } from './integrations.service';
import { mapAnswers, normalizeLabel } from './map-answers';
import type { ProviderAdapter, ProviderRequest } from './provider';

export type ProviderIntakeDeps = {
  db: Db;
  storage: Storage;
  masterKey: Buffer;
  /** FORM_WEBHOOK_SECRET: what verifies the deliveries of a provider without a secret of its own. */
  defaultSecret: string | undefined;
  idPrefix: string;
  maxFileBytes: number;
  /** Wakes the pipeline workers once a submission is committed. */
  onRecorded: () => void;
  /** How files are downloaded (FORM_FILE_HOSTS and the rest); each provider's own file hosts are added to it. */
  filePolicy: Omit<FilePolicy, 'maxBytes'>;
  /** The route's limits: time for the whole body to arrive, requests per address per minute. */
  bodyTimeoutMs: number;
  rateLimitPerMinute: number;
  /** The adapter of each form builder read (PROVIDERS). */
  providers: Partial<Record<TFormProvider, ProviderAdapter>>;
  /** Where a delivery that could not be logged is reported: its answer to the provider stands regardless. */
  log: { warn(object: object, message: string): void };
};

/**
 * The largest delivery body read: the files of a submission inline as base64 JSON (the Google Apps Script
 * sends them so), five files at the size cap with a third more for the encoding, and room for the answers.
 */
export const maxDeliveryBytes = (maxFileBytes: number) => Math.ceil(maxFileBytes * 5 * 1.4) + 1_048_576;

export type IncomingDelivery = {
  provider: TFormProvider;
  /** The token of `/api/intake/{provider}/{token}`, when the address has one. */
  token: string | undefined;
  body: Readable;
  contentType: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  receivedAt: Date;
  /** Aborted, with an AppError as its reason, when the body is taking too long to arrive. */
  deadline?: AbortSignal;
};

/** What the provider is answered for a recorded delivery (202), stored or a resend of one. */
export type DeliveryAnswer = { submissionId: string; duplicate: boolean; documents: IntakeResult['documents'] };

/** A provider without an adapter yet, or a token sent to one that signs: nothing is read or logged. */
export function adapterFor(deps: Pick<ProviderIntakeDeps, 'providers'>, provider: TFormProvider, token: string | undefined): ProviderAdapter {
  const adapter = deps.providers[provider];
  const name = FORM_PROVIDER_NAMES[provider];
  if (!adapter) throw new AppError('NOT_FOUND', `Deliveries from ${name} are not available yet.`);
  if (token !== undefined && adapter.authKind !== 'token') {
    throw new AppError('NOT_FOUND', `${name} deliveries go to /api/intake/${provider}, without a token in the address.`);
  }
  return adapter;
}

/**
 * One delivery of a form builder, from raw body to recorded submission: the provider's proof checked with
 * the secret in force, its answers read by its adapter and mapped to the form's fields, validated as the
 * signed webhook validates them, its files downloaded (or taken inline) into staging, and the submission
 * recorded under `<provider>:<the provider's response id>`, so a resend is a duplicate.
 *
 * Every delivery that reaches here is logged in intake_deliveries, whatever became of it, with the error in
 * the words the provider was answered. A verified delivery's body is kept, sealed, for a replay; a body that
 * was never verified is not. A refusal leaves no staged file behind.
 */
export async function receiveDelivery(deps: ProviderIntakeDeps, incoming: IncomingDelivery): Promise<DeliveryAnswer> {
  const adapter = adapterFor(deps, incoming.provider, incoming.token);
  const contentType = incoming.contentType.slice(0, 200);
  let verifiedBody: Buffer | undefined;
  try {
    const credentials = await readCredentials({ db: deps.db, masterKey: deps.masterKey, defaultSecret: deps.defaultSecret }, adapter.id);
    if (credentials.secret === undefined) {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        `${FORM_PROVIDER_NAMES[adapter.id]} deliveries are not set up: set its secret in Settings → Integrations (or FORM_WEBHOOK_SECRET).`,
      );
    }
    if (!isDeliveryType(incoming.contentType)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the delivery as application/json, application/x-www-form-urlencoded or multipart/form-data.');
    }
    const rawBody = await readSmallBody(incoming.body, maxDeliveryBytes(deps.maxFileBytes), incoming.deadline);
    const request: ProviderRequest = { rawBody, contentType: incoming.contentType, headers: incoming.headers, token: incoming.token };
    if (!adapter.verify(request, credentials.secret)) throw new AppError('UNAUTHENTICATED', refusedProof(adapter.id, adapter.authKind));
    verifiedBody = rawBody;
    const recorded = await processDelivery(deps, adapter, request, credentials, { receivedAt: incoming.receivedAt, replay: false });
    const row = await deliveryOf(deps, adapter.id, incoming.receivedAt, recorded.result);
    await logDelivery(deps, { ...row, contentType }, { body: rawBody });
    return { submissionId: recorded.result.submissionId, duplicate: !recorded.result.created, documents: recorded.result.documents };
  } catch (error) {
    await logDelivery(deps, { ...failedDelivery(adapter.id, incoming.receivedAt, error), contentType }, { body: verifiedBody });
    throw error;
  }
}

/**
 * Runs a kept delivery through the flow again, as it is mapped now (a fixed mapping, a season since
 * created), without checking its proof again: it was verified when it arrived. The replay is logged as a
 * delivery of its own, `replayOf` the first, audited in the same transaction, and answered. A replay of a
 * stored delivery is a duplicate, unless its submission failed (not one of its files could be taken, say
 * their host was not allowed yet): that one is recorded afresh in its place.
 */
export async function replayDelivery(deps: ProviderIntakeDeps, id: string, actor: Actor): Promise<TIntakeDelivery> {
  const original = await findDelivery(deps.db, id);
  if (!original) throw new AppError('NOT_FOUND', 'No such delivery: it may have been removed from the log.');
  if (original.bodyKey === null) {
    throw new AppError('CONFLICT', 'This delivery cannot be replayed: its body was not kept (it was refused before it could be verified).');
  }
  const adapter = adapterFor(deps, original.provider, undefined);
  const rawBody = await openDeliveryBody(deps, original.bodyKey);
  const credentials = await readCredentials({ db: deps.db, masterKey: deps.masterKey, defaultSecret: deps.defaultSecret }, adapter.id);
  const receivedAt = new Date();
  const request: ProviderRequest = { rawBody, contentType: original.contentType, headers: {}, token: undefined };
  let row: NewDelivery;
  let player: { firstName: string; lastName: string } | undefined;
  try {
    const recorded = await processDelivery(deps, adapter, request, credentials, { receivedAt, replay: true });
    row = await deliveryOf(deps, adapter.id, receivedAt, recorded.result);
    player = recorded.player;
  } catch (error) {
    row = failedDelivery(adapter.id, receivedAt, error);
    // Answered as a failed delivery, not thrown: the cause of one that is our fault is worth the log.
    if (row.status >= 500) deps.log.warn({ err: error, provider: adapter.id }, 'a replayed form builder delivery failed');
  }
  const bodyKey = await copyDeliveryBody(deps.storage, original.bodyKey);
  const replay = await writeDelivery(deps, { ...row, contentType: original.contentType, replayOf: original.id }, bodyKey, (inserted) => ({
    actor: actor.principal,
    action: 'intake.delivery_replayed',
    subjectType: 'intake_delivery',
    subjectId: inserted.id,
    detail: { provider: adapter.id, replayOf: original.id, outcome: inserted.outcome, status: inserted.status },
    requestId: actor.requestId,
  }));
  return toDelivery({ ...replay, playerFirstName: player?.firstName ?? null, playerLastName: player?.lastName ?? null });
}

function refusedProof(provider: TFormProvider, kind: TProviderAuthKind): string {
  const name = FORM_PROVIDER_NAMES[provider];
  switch (kind) {
    case 'signature':
      return `Missing or wrong ${name} signature: the secret set in ${name} must be the one in Settings → Integrations.`;
    case 'handshake':
      return `Missing or wrong handshake key: the key set in ${name} must be the secret in Settings → Integrations.`;
    case 'token':
      return `Missing or wrong token in the webhook address: copy the address again from Settings → Integrations.`;
  }
}

/** After the proof: answers read, mapped, validated, files staged, submission recorded. */
async function processDelivery(
  deps: ProviderIntakeDeps,
  adapter: ProviderAdapter,
  request: ProviderRequest,
  credentials: ProviderCredentials,
  options: { receivedAt: Date; replay: boolean },
): Promise<{ result: IntakeResult; player: SubmittedPlayer }> {
  const delivery = adapter.parse(request);
  await noteQuestions(deps.db, adapter.id, questionsOf(delivery.answers));
  const mapped = mapAnswers(delivery.answers, credentials.mapping);
  const externalId = `${adapter.id}:${delivery.externalId}`;
  const fields = ZReceivedFormFields.safeParse({ ...mapped.fields, submissionId: externalId, season: await seasonOf(deps.db, mapped.fields.season) });
  if (!fields.success) {
    const details = fieldErrors(fields.error);
    throw new AppError('VALIDATION_FAILED', `Invalid submission. ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
  }
  const player = toSubmittedPlayer(fields.data);
  const previous = await findSubmissionByExternalId(deps.db, 'form', externalId);
  const replaces = options.replay && previous?.status === 'failed' ? previous.id : undefined;
  const submission = {
    id: randomUUID(),
    source: 'form' as const,
    externalId,
    receivedAt: options.receivedAt,
    fromEmail: player.guardianEmail,
    subject: null,
    player,
    replaces,
  };
  // A resend of a recorded response: answered as the duplicate it is, without downloading its files again.
  if (previous && !replaces) return { result: await recordStagedSubmission(deps, { ...submission, files: [] }), player };
  if (mapped.files.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'The submission has no files.', [{ path: 'files', message: 'attach at least one document' }]);
  }
  if (mapped.files.length > MAX_FILES) {
    throw new AppError('VALIDATION_FAILED', `The submission has ${mapped.files.length} files; at most ${MAX_FILES} are taken.`, [
      { path: 'files', message: `at most ${MAX_FILES} files per submission` },
    ]);
  }
  const headers = (url: URL) => adapter.downloadHeaders?.(credentials.downloadKey, url) ?? {};
  const sources: FileSource[] = mapped.files.map((file) =>
    file.kind === 'url'
      ? { kind: 'url', url: file.url, filename: file.filename, declaredType: file.declaredType, headers }
      : { kind: 'inline', content: file.content, filename: file.filename, declaredType: file.declaredType },
  );
  const files = await stageSources(sources, {
    storage: deps.storage,
    masterKey: deps.masterKey,
    maxFileBytes: deps.maxFileBytes,
    stagingKey: (position) => stagedKey(submission.id, position),
    filePolicy: {
      ...deps.filePolicy,
      allowedDomains: [...(deps.filePolicy.allowedDomains ?? []), ...adapter.fileHosts],
      maxBytes: deps.maxFileBytes,
    },
  });
  return { result: await recordStagedSubmission(deps, { ...submission, files }), player };
}

/** The questions of a delivery, each key once, for the mapping's choices. */
function questionsOf(answers: ReadonlyArray<{ key: string; label: string }>): TProviderQuestion[] {
  const seen = new Set<string>();
  return answers.flatMap(({ key, label }) => {
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ key, label }];
  });
}

/**
 * The season a delivery names, as the form's season field takes it: the current season when the form
 * does not ask, a season's name ("Fall Ball 2025") as its id, anything else as written (for validation to
 * name).
 */
async function seasonOf(db: Db, answer: string | undefined): Promise<string | undefined> {
  if (answer === undefined) return (await findCurrentSeason(db))?.id;
  if (/^(\d{4}|[a-z]+-\d{4})$/.test(answer)) return answer;
  const wanted = normalizeLabel(answer);
  return (await listSeasons(db)).find((season) => normalizeLabel(season.name) === wanted || normalizeLabel(season.id) === wanted)?.id ?? answer;
}

async function deliveryOf(deps: ProviderIntakeDeps, provider: TFormProvider, receivedAt: Date, result: IntakeResult): Promise<NewDelivery> {
  const submission = await findSubmission(deps.db, result.submissionId);
  return {
    provider,
    receivedAt,
    outcome: result.created ? 'stored' : 'duplicate',
    status: 202,
    submissionId: result.submissionId,
    playerId: submission?.playerId ?? null,
    documents: result.created ? result.documents.length : 0,
    error: null,
  };
}

/** A delivery that was refused (4xx) or failed (5xx), with the error in the words it was answered. */
function failedDelivery(provider: TFormProvider, receivedAt: Date, error: unknown): NewDelivery {
  const { status, body } = toApiError(error, '');
  const outcome: TDeliveryOutcome = status >= 500 ? 'failed' : 'refused';
  return { provider, receivedAt, outcome, status, error: body.message.slice(0, 2_000) };
}

/**
 * Logs a delivery received from a provider: its answer stands whatever becomes of this, so a failure here
 * (storage or the database away) is reported, not thrown.
 */
async function logDelivery(deps: ProviderIntakeDeps, row: NewDelivery, options: { body: Buffer | undefined }): Promise<void> {
  try {
    const bodyKey = options.body === undefined ? null : await sealDeliveryBody(deps, options.body);
    await writeDelivery(deps, row, bodyKey);
  } catch (error) {
    deps.log.warn({ err: error, provider: row.provider, outcome: row.outcome }, 'could not log a form builder delivery');
  }
}

/**
 * Inserts a delivery row (its audit record, if any, in the same transaction) and trims the provider's log to
 * the newest DELIVERIES_KEPT; the bodies of trimmed rows are deleted once that has committed. A row that
 * cannot be written leaves no kept body behind.
 */
async function writeDelivery(
  deps: ProviderIntakeDeps,
  row: NewDelivery,
  bodyKey: string | null,
  audit?: (inserted: DeliveryRow) => Parameters<typeof recordAuditEvent>[1],
): Promise<DeliveryRow> {
  let written: { inserted: DeliveryRow; trimmed: string[] };
  try {
    written = await deps.db.transaction(async (tx) => {
      const inserted = await insertDelivery(tx, { ...row, bodyKey });
      if (audit) await recordAuditEvent(tx, audit(inserted));
      return { inserted, trimmed: await trimDeliveries(tx, row.provider, DELIVERIES_KEPT) };
    });
  } catch (error) {
    if (bodyKey !== null) await deleteDeliveryBodies(deps.storage, [bodyKey]);
    throw error;
  }
  await deleteDeliveryBodies(deps.storage, written.trimmed);
  return written.inserted;
}
