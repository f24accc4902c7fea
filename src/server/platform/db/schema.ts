import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  type AnyPgColumn,
  smallint,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  DELIVERY_OUTCOMES,
  DIVISIONS,
  FORM_PROVIDERS,
  type TAuditAction,
  type TAuditSubject,
  DOC_TYPES,
  DOCUMENT_STATUSES,
  NOTIFICATION_CHANNELS,
  PLAYER_DOC_STATUSES,
  READING_STATES,
  type TReadingState,
  NOTIFICATION_STATUSES,
  REQUIREMENT_LASTS,
  SEASON_KINDS,
  SUBMISSION_SOURCES,
  SUBMISSION_STATUSES,
  USER_ROLES,
  USER_STATUSES,
  type TDeliveryOutcome,
  type TDivision,
  type TFormProvider,
  type TDocType,
  type TDocumentStatus,
  type TNotificationChannel,
  type TNotificationStatus,
  type TPlayerDocStatus,
  type TDivisionAges,
  type TRequirementLasts,
  type TSeasonKind,
  type TSubmissionSource,
  type TSubmissionStatus,
  type TUserRole,
  type TUserStatus
} from '../../../contract';

/** bytea as a Node Buffer on both drivers (PGlite hands back Uint8Array, node-postgres a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
});

/** A CHECK that keeps an enumerated text column inside its allowed values. */
const oneOf = (name: string, column: AnyPgColumn, values: readonly string[]) =>
  check(name, sql`${column} in (${sql.join(values.map((v) => sql.raw(`'${v}'`)), sql`, `)})`);

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const seasons = pgTable('seasons', {
  /** Readable and stable, e.g. `fall-2025`. */
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  kind: text('kind').$type<TSeasonKind>().notNull(),
  year: integer('year').notNull(),
  startsOn: date('starts_on').notNull(),
  endsOn: date('ends_on').notNull(),
  isCurrent: boolean('is_current').notNull().default(false),
  /** The last day families are asked to register by; null for a season made before deadlines were kept (its end date). */
  registrationDeadline: date('registration_deadline'),
  /** The divisions the season offers: the form and the mailbox refuse a registration into another. */
  divisions: text('divisions').array().$type<TDivision[]>().notNull().default(sql.raw(`'{${DIVISIONS.join(',')}}'::text[]`)),
  /** Set while the season is closed to new registrations. */
  closedAt: timestamp('closed_at', { withTimezone: true }),
  /** The day league age is counted on (baseball 31 August); null: no league age is shown. */
  ageDate: date('age_date'),
  /** The league ages each division takes, `{ "AA": { "min": 8, "max": 10 } }`; a division not listed takes any age. */
  divisionAges: jsonb('division_ages').$type<Partial<Record<TDivision, TDivisionAges>>>().notNull().default({}),
  /** Verify, then minimise: days after a birth certificate's verification its stored file is deleted; null keeps files. */
  removeVerifiedBirthCertificateFilesAfterDays: integer('remove_verified_birth_certificate_files_after_days'),
}, (t) => [
  oneOf('seasons_kind_ck', t.kind, SEASON_KINDS),
  check('seasons_divisions_ck', sql`cardinality(${t.divisions}) > 0 and ${t.divisions} <@ array[${sql.raw(DIVISIONS.map((d) => `'${d}'`).join(', '))}]::text[]`),
  // At most one current season: making one current unmarks the other in the same transaction.
  uniqueIndex('seasons_one_current_uq').on(t.isCurrent).where(sql`${t.isCurrent}`),
]);

/**
 * A season's requirement rule per document type (decision 030). A trigger gives every new season the
 * default rules (migration 0016), so each season has its four rows whatever wrote it; editing them
 * recomputes the season's registration summaries.
 */
export const seasonRequirements = pgTable(
  'season_requirements',
  {
    seasonId: text('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    docType: text('doc_type').$type<TDocType>().notNull(),
    required: boolean('required').notNull().default(true),
    lasts: text('lasts').$type<TRequirementLasts>().notNull(),
    /** With lasts = 'months'. */
    months: smallint('months'),
    /** Approved documents needed; with groups, each from a different group. */
    documents: smallint('documents').notNull().default(1),
    groups: text('groups').array().notNull().default(sql`'{}'::text[]`),
    datedFrom: date('dated_from'),
    datedTo: date('dated_to'),
  },
  (t) => [
    primaryKey({ columns: [t.seasonId, t.docType] }),
    oneOf('season_requirements_doc_type_ck', t.docType, DOC_TYPES),
    oneOf('season_requirements_lasts_ck', t.lasts, REQUIREMENT_LASTS),
    check('season_requirements_months_ck', sql`(${t.lasts} = 'months') = (${t.months} is not null) and (${t.months} is null or ${t.months} between 1 and 60)`),
    check('season_requirements_documents_ck', sql`${t.documents} between 1 and 5`),
  ],
);

/**
 * The day the registration summaries are judged on (decision 030): an approval that lapses on a day stops
 * counting once this reaches it. One row; moved forward by the `requirements-day` job from the server's clock.
 */
export const requirementDay = pgTable('requirement_day', {
  id: boolean('id').primaryKey().default(true),
  day: date('day').notNull(),
}, (t) => [check('requirement_day_one_row_ck', sql`${t.id}`)]);

export const players = pgTable(
  'players',
  {
    /** `{PREFIX}-{year}-{8 hex}`, derived from the normalised name and birth date (see player-id.ts). */
    id: text('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    birthDate: date('birth_date').notNull(),
    guardianName: text('guardian_name'),
    guardianEmail: text('guardian_email'),
    guardianPhone: text('guardian_phone'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * The same child across years: the player id without its year (`{prefix}-{8 hex}`), since the id of a
     * returning child differs only in the year. Approvals that last beyond a season count for every player
     * row of the child (decision 030). Generated by the database.
     */
    childKey: text('child_key')
      .notNull()
      .generatedAlwaysAs(sql`regexp_replace(id, '-[0-9]{4}-([0-9a-f]{8})$', '-\1')`),
    /** Set when a verified birth certificate fixed the date of birth: it can no longer be changed. */
    birthDateVerifiedAt: timestamp('birth_date_verified_at', { withTimezone: true }),
  },
  (t) => [index('players_last_first_idx').on(t.lastName, t.firstName), index('players_child_key_idx').on(t.childKey)],
);

/** A registration's status of one document type, kept by the documents trigger (migration 0004). */
const typeStatus = (name: string) => text(name).$type<TPlayerDocStatus>().notNull().default('missing');

/**
 * A player's registration for one season. A child can play Spring and Fall of the same year under the
 * same player id, and can change division between seasons, so season and division live here
 * (docs/decisions/002-registrations-table.md).
 *
 * The columns after `registeredAt` are a summary the database keeps by itself (migration 0004, decision
 * 012): the player's names, copied from `players` when the row is inserted, and the season's document
 * status per type, recomputed by triggers on `documents` whenever a document of this player and season
 * is added, changes status, type, player or season, is purged or deleted. Never write them from code.
 */
/** A row of one player in one season: the player's rows go with the player; a season with rows stays. */
const playerIdColumn = () =>
  text('player_id')
    .notNull()
    .references(() => players.id, { onDelete: 'cascade' });
const seasonIdColumn = () =>
  text('season_id')
    .notNull()
    .references(() => seasons.id);

export const registrations = pgTable(
  'registrations',
  {
    playerId: playerIdColumn(),
    seasonId: seasonIdColumn(),
    division: text('division').$type<TDivision>().notNull(),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull().defaultNow(),
    /** Copies of players.first_name / last_name (filled by a trigger), so a season's rows sort by name from one index. */
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /**
     * What the report's search looks in, folded (no accents, lowercase: clearbase_fold, decision 024): 'first last',
     * 'last, first', 'last first', the id, the guardian's name and e-mail, one per line. Its trigram index,
     * registrations_search_text_trgm_idx, is written by hand in migration 0013 (it needs pg_trgm), as are the
     * folded-name and folded-file-name indexes on players and documents.
     */
    searchText: text('search_text').notNull().default(''),
    /** Per type: complete (a verified one), else pending, else processing, else missing (none, rejected or purged). */
    birthCertificateStatus: typeStatus('birth_certificate_status'),
    residencyStatus: typeStatus('residency_status'),
    medicalStatus: typeStatus('medical_status'),
    waiverStatus: typeStatus('waiver_status'),
    /** Types whose status is complete (0-4) and pending (0-4). */
    completeTypes: smallint('complete_types').notNull().default(0),
    pendingTypes: smallint('pending_types').notNull().default(0),
    /**
     * While all four types are complete: when the last of them was verified (its earliest verified document's
     * review time). Null otherwise. The breakdown's "complete a week ago" reads it.
     */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** The season's documents of the player that are neither rejected nor purged, any type or none. */
    liveDocuments: integer('live_documents').notNull().default(0),
    /** Of those, the ones waiting for review (`pending`). */
    pendingDocuments: integer('pending_documents').notNull().default(0),
    /** The first day a requirement met now stops counting (a medical form's year); null when none lapses. */
    expiresOn: date('expires_on'),
  },
  (t) => [
    primaryKey({ columns: [t.playerId, t.seasonId] }),
    // The report's order (last name, first name, id) within a season, whole or one division: a page is read
    // in index order and stops after its rows.
    index('registrations_season_name_idx').on(t.seasonId, t.lastName, t.firstName, t.playerId),
    index('registrations_season_division_name_idx').on(t.seasonId, t.division, t.lastName, t.firstName, t.playerId),
    // The season report's incomplete players (lowest completion first, then by name): its first rows in index order.
    index('registrations_season_completion_name_idx').on(t.seasonId, t.completeTypes, t.lastName, t.firstName, t.playerId),
    // The expiring filter and card, and the requirements-day job's lapsed approvals: few rows have a date.
    index('registrations_season_expires_idx').on(t.seasonId, t.expiresOn).where(sql`${t.expiresOn} is not null`),
    index('registrations_expires_idx').on(t.expiresOn).where(sql`${t.expiresOn} is not null`),
    oneOf('registrations_division_ck', t.division, DIVISIONS),
    oneOf('registrations_birth_certificate_status_ck', t.birthCertificateStatus, PLAYER_DOC_STATUSES),
    oneOf('registrations_residency_status_ck', t.residencyStatus, PLAYER_DOC_STATUSES),
    oneOf('registrations_medical_status_ck', t.medicalStatus, PLAYER_DOC_STATUSES),
    oneOf('registrations_waiver_status_ck', t.waiverStatus, PLAYER_DOC_STATUSES),
  ],
);

/**
 * Each season and division's totals of the registration summary, kept by triggers on registrations
 * (migration 0004, decision 012), so the dashboard's figures and the report's counts read a handful of rows,
 * not a season of registrations. A change adds its difference to the row of its own `slot` (the database
 * session's number modulo 8): concurrent writers seldom wait on one row, and a figure is the sum over the
 * slots. Never written from code; no foreign key, so truncating seasons and registrations together works.
 */
export const seasonTotals = pgTable(
  'season_totals',
  {
    seasonId: text('season_id').notNull(),
    division: text('division').$type<TDivision>().notNull(),
    slot: smallint('slot').notNull(),
    /** Registrations. */
    players: integer('players').notNull().default(0),
    /** Registrations with all four types complete. */
    completePlayers: integer('complete_players').notNull().default(0),
    /** Registrations with at least one type pending. */
    pendingPlayers: integer('pending_players').notNull().default(0),
    liveDocuments: integer('live_documents').notNull().default(0),
    pendingDocuments: integer('pending_documents').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.seasonId, t.division, t.slot] })],
);

/**
 * The season report's breakdown: each season's registrations counted by division, completeness, each type's
 * status and the UTC months of registration and of completion. Kept by the triggers that keep season_totals
 * (migration 0018, decision 032), in the same slots: a group's count is the sum of its rows over the slots,
 * and a group whose sum is zero has no registration (a row of this slot that reaches zero is deleted, but
 * one slot's -1 and another's +1 stay). Never written from code; no foreign key, as season_totals.
 */
export const seasonBreakdown = pgTable(
  'season_breakdown',
  {
    seasonId: text('season_id').notNull(),
    division: text('division').$type<TDivision>().notNull(),
    /** All four types met (registrations.complete_types = 4). */
    complete: boolean('complete').notNull(),
    birthCertificateStatus: text('birth_certificate_status').$type<TPlayerDocStatus>().notNull(),
    residencyStatus: text('residency_status').$type<TPlayerDocStatus>().notNull(),
    medicalStatus: text('medical_status').$type<TPlayerDocStatus>().notNull(),
    waiverStatus: text('waiver_status').$type<TPlayerDocStatus>().notNull(),
    /** The first day of the month of registered_at, in UTC. */
    registeredMonth: date('registered_month').notNull(),
    /** The first day of the month of completed_at, in UTC; null while completed_at is (the player is not complete). */
    completedMonth: date('completed_month'),
    slot: smallint('slot').notNull(),
    /** Registrations of the group, as counted in this slot: positive, or negative when other slots counted them in. */
    players: integer('players').notNull(),
  },
  (t) => [
    // One row per group and slot: the triggers' upsert finds its row by it, and the report reads a season's
    // (and division's) rows from it. An incomplete group's completed_month is null: the key takes it as one
    // value through coalesce (NULLS NOT DISTINCT would need PostgreSQL 15).
    uniqueIndex('season_breakdown_group_slot_uq').on(
      t.seasonId,
      t.division,
      t.complete,
      t.birthCertificateStatus,
      t.residencyStatus,
      t.medicalStatus,
      t.waiverStatus,
      t.registeredMonth,
      sql`coalesce(${t.completedMonth}, 'infinity'::date)`,
      t.slot,
    ),
  ],
);

export const submissions = pgTable(
  'submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    source: text('source').$type<TSubmissionSource>().notNull(),
    /** The form provider's submission id, or the e-mail's Message-ID. */
    externalId: text('external_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    fromEmail: text('from_email'),
    subject: text('subject'),
    playerId: text('player_id').references(() => players.id, { onDelete: 'set null' }),
    seasonId: text('season_id').references(() => seasons.id),
    /** The player details as received, before they are matched to a player. */
    fields: jsonb('fields').$type<Record<string, string | null>>().notNull().default({}),
    status: text('status').$type<TSubmissionStatus>().notNull().default('pending'),
    errorMessage: text('error_message'),
    attachmentCount: integer('attachment_count').notNull().default(0),
    createdAt: createdAt(),
    /** The family upload link a submission came through (source `family`); null for every other source. */
    uploadLinkId: uuid('upload_link_id').references((): AnyPgColumn => uploadLinks.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('submissions_source_external_id_uq').on(t.source, t.externalId),
    index('submissions_received_at_idx').on(t.receivedAt),
    // A link's uploads of the last hour are counted before each new one.
    index('submissions_upload_link_idx').on(t.uploadLinkId, t.receivedAt).where(sql`${t.uploadLinkId} is not null`),
    oneOf('submissions_source_ck', t.source, SUBMISSION_SOURCES),
    oneOf('submissions_status_ck', t.status, SUBMISSION_STATUSES),
  ],
);

export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    playerId: playerIdColumn(),
    seasonId: seasonIdColumn(),
    submissionId: uuid('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    /** Null while the type could not be detected: the document then needs review. */
    docType: text('doc_type').$type<TDocType>(),
    originalFilename: text('original_filename').notNull(),
    storedPath: text('stored_path'),
    storageDriver: text('storage_driver').$type<'local' | 's3'>(),
    storageKey: text('storage_key'),
    /** Where the encrypted upload waits between intake and the pipeline; cleared once it is moved or deleted. */
    stagedKey: text('staged_key'),
    status: text('status').$type<TDocumentStatus>().notNull().default('processing'),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    mime: text('mime'),
    fileSha256: text('file_sha256'),
    /** AES-256-GCM envelope: the per-file data key wrapped by the master key, and the file's IV and tag. */
    wrappedKey: bytea('wrapped_key'),
    iv: bytea('iv'),
    authTag: bytea('auth_tag'),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewNotes: text('review_notes'),
    retainUntil: timestamp('retain_until', { withTimezone: true }),
    /** Set when retention removed the stored object; the row stays as a tombstone. */
    purgedAt: timestamp('purged_at', { withTimezone: true }),
    /** Who reviewed it last, in words (a person's name, 'Shared password'). */
    reviewedBy: text('reviewed_by'),
    /** Recorded with the approval of a birth certificate: the date of birth it shows. */
    factBirthDate: date('fact_birth_date'),
    /** Recorded with an approval: a medical form's exam date, a residency document's date. */
    documentDate: date('document_date'),
    /** Recorded with the approval of a residency document: its group among the season's. */
    residencyGroup: text('residency_group'),
    /**
     * Verify, then minimise: when the stored file of this verified document was deleted on purpose. Unlike
     * purged_at, the document still counts; its verification, facts and hash stay.
     */
    fileRemovedAt: timestamp('file_removed_at', { withTimezone: true }),
    /**
     * While the virus scanner cannot be reached: when the first failed scan attempt of the current series was.
     * Automatic retries stop a day after it (decision 018). Cleared when a scan gives a verdict.
     */
    scanFirstFailedAt: timestamp('scan_first_failed_at', { withTimezone: true }),
    /**
     * Set when the document is shown as waiting for a virus scan that failed ('Scan failed, will retry'), after
     * the first few failed attempts; its status stays `processing`, so the registration summary counts it as
     * processing. Cleared when a scan gives a verdict.
     */
    scanFailedAt: timestamp('scan_failed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('documents_season_player_type_idx').on(t.seasonId, t.playerId, t.docType),
    index('documents_uploaded_at_idx').on(t.uploadedAt),
    // A status's documents in upload order: the review queue's page (pending, oldest first) reads its hundred
    // rows from it, where an index on the status alone left it sorting every pending document.
    index('documents_status_uploaded_idx').on(t.status, t.uploadedAt, t.id),
    index('documents_player_sha_idx').on(t.playerId, t.fileSha256),
    // The requirement rules read a child's documents of one type across seasons.
    index('documents_player_type_idx').on(t.playerId, t.docType),
    // Settling and listing a submission's documents.
    index('documents_submission_idx').on(t.submissionId),
    // The staging sweep asks which staged keys are still referenced; few rows have one at any time.
    index('documents_staged_key_idx').on(t.stagedKey).where(sql`${t.stagedKey} is not null`),
    // Health counts the documents waiting for a failed scan; at any time there are few or none.
    index('documents_scan_failed_idx').on(t.scanFailedAt).where(sql`${t.scanFailedAt} is not null`),
    // The daily retention job looks for live documents past their date.
    index('documents_retain_until_idx').on(t.retainUntil).where(sql`${t.purgedAt} is null`),
    // The same file for the same player and season is one document (a rejected copy does not count).
    uniqueIndex('documents_player_season_sha_uq')
      .on(t.playerId, t.seasonId, t.fileSha256)
      .where(sql`${t.status} <> 'rejected' and ${t.purgedAt} is null`),
    oneOf('documents_status_ck', t.status, DOCUMENT_STATUSES),
    oneOf('documents_doc_type_ck', t.docType, DOC_TYPES),
  ],
);

/**
 * What reading a document found (one row per document, made when its reading is queued): the text sealed like
 * a stored file (a fresh data key wrapped by the master key), a blind index of its words for staff search
 * (keyed hashes, never the words), the extracted facts and the checks against the registration. Deleted with
 * the file.
 */
export const documentReadings = pgTable(
  'document_readings',
  {
    documentId: uuid('document_id')
      .primaryKey()
      .references(() => documents.id, { onDelete: 'cascade' }),
    state: text('state').$type<TReadingState>().notNull(),
    /** The text, sealed (ZSealedSecret); null until read, and when nothing could be read. */
    text: jsonb('text'),
    /** Keyed hashes of the text's words (search.ts in reading/), for a search that never stores a word in the clear. */
    wordHashes: text('word_hashes').array().notNull().default(sql`'{}'::text[]`),
    /** ZExtracted as found; null until read. */
    extracted: jsonb('extracted'),
    /** Whether enough text could be read to judge the document; false raises the `unreadable` check. Null until read. */
    readable: boolean('readable'),
    /** Seconds the reading took, and how (the PDF's text layer, or OCR). */
    method: text('method'),
    seconds: real('seconds'),
    pages: smallint('pages'),
    /** Why reading failed, in words for staff (never a path or a stack). */
    failure: text('failure'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('document_readings_word_hashes_idx').using('gin', t.wordHashes),
    oneOf('document_readings_state_ck', t.state, READING_STATES),
  ],
);

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Who did it: 'user' (a person, named below), 'shared-password', 'system', 'form', 'mailbox'. */
    actor: text('actor').notNull(),
    /** The person, when `actor` is 'user'. Not a foreign key: the trail outlives a deleted account. */
    actorUserId: uuid('actor_user_id'),
    /** The person's name as it was when they acted, or 'Shared password' / 'System'. */
    actorName: text('actor_name'),
    action: text('action').$type<TAuditAction>().notNull(),
    subjectType: text('subject_type').$type<TAuditSubject>().notNull(),
    subjectId: text('subject_id'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    requestId: text('request_id'),
  },
  (t) => [
    index('audit_events_subject_idx').on(t.subjectType, t.subjectId),
    index('audit_events_at_idx').on(t.at),
    // A person's activity, newest first, and their last action on the users list.
    index('audit_events_actor_user_idx').on(t.actorUserId, t.id),
  ],
);

export const mailboxState = pgTable('mailbox_state', {
  id: text('id').primaryKey().default('default'),
  schedulerRunning: boolean('scheduler_running').notNull().default(false),
  intervalMs: integer('interval_ms').notNull().default(300_000),
  lastCheckAt: timestamp('last_check_at', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  lastError: text('last_error'),
  /** The instance holding the check lease (only one instance checks the mailbox at a time), until when. */
  checkOwner: text('check_owner'),
  checkLeaseUntil: timestamp('check_lease_until', { withTimezone: true }),
  updatedAt: updatedAt(),
});

/** Key/value settings; secret values are stored encrypted with the master key. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updatedAt: updatedAt(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    role: text('role').$type<TUserRole>().notNull(),
    status: text('status').$type<TUserStatus>().notNull().default('pending'),
    /** Empty: every division. */
    divisions: text('divisions').array().$type<TDivision[]>().notNull().default(sql`'{}'::text[]`),
    /** scrypt hash (platform/crypto/password); null until the invitation is accepted. */
    passwordHash: text('password_hash'),
    /** The TOTP secret, sealed with the master key; null without two-step sign-in. */
    totpSecretSealed: text('totp_secret_sealed'),
    /** When two-step sign-in was confirmed with a first code; null while only set up, or off. */
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /** SHA-256 of each unused recovery code. */
    recoveryCodeHashes: text('recovery_code_hashes').array().notNull().default(sql`'{}'::text[]`),
    /** The 30-second step of the last code accepted: a code works once, and never an older one after it. */
    totpLastStep: integer('totp_last_step'),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    profileImageUrl: text('profile_image_url'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    oneOf('users_role_ck', t.role, USER_ROLES),
    oneOf('users_status_ck', t.status, USER_STATUSES),
  ],
);

export const notificationTemplates = pgTable('notification_templates', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  type: text('type').$type<TNotificationChannel>().notNull(),
  subject: text('subject').notNull().default(''),
  content: text('content').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [oneOf('notification_templates_type_ck', t.type, NOTIFICATION_CHANNELS)]);

export const notificationHistory = pgTable(
  'notification_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    templateId: uuid('template_id').references(() => notificationTemplates.id, { onDelete: 'set null' }),
    type: text('type').$type<TNotificationChannel>().notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull().default(''),
    status: text('status').$type<TNotificationStatus>().notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    errorMessage: text('error_message'),
    createdAt: createdAt(),
    /**
     * The player a message to a family was about, and the season: a person limited to some divisions sees the
     * messages whose player is registered for that season in one of them. Null for a message to no family (a
     * chat channel, administrators, an address of no player's, a test); those only a person of every division sees.
     */
    playerId: text('player_id').references(() => players.id, { onDelete: 'set null' }),
    seasonId: text('season_id').references(() => seasons.id),
    /** The message's text as sent, placeholders filled in (the e-mail's text part, the chat post); null in rows from before it was kept. */
    body: text('body'),
  },
  (t) => [
    // History's page, newest first: a send writes all its messages with one created_at, so the id is in the
    // key too, or each page sorts a whole send.
    index('notification_history_created_at_idx').on(t.createdAt, t.id),
    // A player's deletion clears their messages' player_id.
    index('notification_history_player_idx').on(t.playerId),
    oneOf('notification_history_type_ck', t.type, NOTIFICATION_CHANNELS),
    oneOf('notification_history_status_ck', t.status, NOTIFICATION_STATUSES),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie's token: a leaked table cannot be replayed as cookies. */
    id: text('id').primaryKey(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** The person signed in; null for the shared password. Deleting the user ends their sessions. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [index('sessions_expires_at_idx').on(t.expiresAt), index('sessions_user_id_idx').on(t.userId)],
);

/**
 * Links that let a person choose a password: an invitation, or a reset. Only the token's SHA-256 is kept;
 * a link works once, until `expiresAt`, and a newer link for the same user replaces it.
 */
export const userTokens = pgTable(
  'user_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'invitation' | 'reset'>().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('user_tokens_user_id_idx').on(t.userId), oneOf('user_tokens_purpose_ck', t.purpose, ['invitation', 'reset'])],
);

/**
 * Login attempts per client address in the current fixed window, shared by every instance on the
 * database so the login limit holds in total. The address is kept only as a keyed hash.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    /**
     * HMAC-SHA256 of the client address under a key derived from the master key; for the per-account count,
     * 'account:' and the HMAC of the lower-cased e-mail under a key of its own.
     */
    addressHash: text('address_hash').primaryKey(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull(),
    /** The row's own window: a minute per address, longer per account; the purge keeps a row until its window has ended. */
    windowSeconds: integer('window_seconds').notNull().default(60),
  },
  (t) => [index('login_attempts_window_started_at_idx').on(t.windowStartedAt)],
);

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type TJobStatus = (typeof JOB_STATUSES)[number];

/** Durable work queue in PostgreSQL itself: workers claim jobs with FOR UPDATE SKIP LOCKED, so no two take one job. */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    queue: text('queue').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<TJobStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('jobs_claim_idx').on(t.queue, t.status, t.runAt), oneOf('jobs_status_ck', t.status, JOB_STATUSES)],
);

/**
 * Each delivery a form builder made to `POST /api/intake/{provider}`, as Settings → Integrations lists it.
 * The body is kept, encrypted in storage under `bodyKey`, so a delivery can be replayed; the oldest beyond
 * the last hundred per provider are deleted with their bodies.
 */
export const intakeDeliveries = pgTable(
  'intake_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').$type<TFormProvider>().notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    outcome: text('outcome').$type<TDeliveryOutcome>().notNull(),
    /** The HTTP status the provider was answered. */
    status: integer('status').notNull(),
    submissionId: uuid('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    playerId: text('player_id').references(() => players.id, { onDelete: 'set null' }),
    documents: integer('documents').notNull().default(0),
    /** Why it was refused or failed, in the words the provider was answered. */
    error: text('error'),
    replayOf: uuid('replay_of'),
    /** The encrypted raw body in storage, for a replay; null once it is no longer kept. */
    bodyKey: text('body_key'),
    contentType: text('content_type').notNull().default(''),
  },
  (t) => [
    index('intake_deliveries_provider_received_idx').on(t.provider, t.receivedAt),
    oneOf('intake_deliveries_provider_ck', t.provider, FORM_PROVIDERS),
    oneOf('intake_deliveries_outcome_ck', t.outcome, DELIVERY_OUTCOMES),
  ],
);

/**
 * A family's personal upload link for one player and season. Only the token's SHA-256 is kept: the link
 * itself exists in the message that carried it, or the copy staff made when issuing it. A link works until
 * `expiresAt` unless revoked; several may work at once (each reminder carries a fresh one).
 */
export const uploadLinks = pgTable(
  'upload_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    playerId: playerIdColumn(),
    seasonId: seasonIdColumn(),
    /** Who issued it, as the audit names them ('Ana Ruiz', 'Automatic reminder'). */
    issuedBy: text('issued_by').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The last time the family page was opened or an upload made through it. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('upload_links_token_hash_uq').on(t.tokenHash), index('upload_links_player_season_idx').on(t.playerId, t.seasonId)],
);

/** A season's automatic reminders (the Notifications screen): off until staff turn them on. */
export const reminderSchedules = pgTable('reminder_schedules', {
  seasonId: text('season_id')
    .primaryKey()
    .references(() => seasons.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  /** Days before the registration deadline a reminder goes out, largest first. */
  daysBeforeDeadline: jsonb('days_before_deadline').$type<number[]>().notNull(),
  /** Days after a document was not accepted a reminder goes out, while it is still missing. */
  daysAfterRejection: jsonb('days_after_rejection').$type<number[]>().notNull(),
  updatedAt: updatedAt(),
});

/**
 * One automatic reminder sent to one family (a guardian e-mail, lower-cased) on one day: the unique index is
 * what keeps a family to one reminder a day, whichever instance's sweep runs and however often.
 */
export const automaticReminders = pgTable(
  'automatic_reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipient: text('recipient').notNull(),
    /** The day it counts for (YYYY-MM-DD, UTC). */
    sentOn: date('sent_on').notNull(),
    seasonId: text('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    /** The players it was about. */
    playerIds: jsonb('player_ids').$type<string[]>().notNull(),
    /** Why it went out: 'deadline:7', 'rejection:3'. */
    reason: text('reason').notNull(),
    historyId: uuid('history_id').references(() => notificationHistory.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('automatic_reminders_recipient_day_uq').on(t.recipient, t.sentOn), index('automatic_reminders_season_idx').on(t.seasonId)],
);

export const schema = {
  seasons,
  players,
  registrations,
  seasonTotals,
  seasonBreakdown,
  submissions,
  documents,
  auditEvents,
  mailboxState,
  settings,
  users,
  notificationTemplates,
  notificationHistory,
  sessions,
  userTokens,
  loginAttempts,
  jobs,
  intakeDeliveries,
  uploadLinks,
  reminderSchedules,
  automaticReminders,
};
export type Schema = typeof schema;
