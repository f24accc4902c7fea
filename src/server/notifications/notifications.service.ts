import {
  CHANNEL_LABELS,
  DOC_TYPE_LABELS,
  findPlaceholders,
  parseRecipientList,
  placeholderProblem,
  principalCan,
  RECIPIENT_KIND_LABELS,
  sendableByHand,
  type TDeliveryProblem,
  type TMessagePreview,
  type TJobQueue,
  type TNotificationChannel,
  type TNotificationHistory,
  type TNotificationSendParsed,
  type TNotificationSendResult,
  type TNotificationSettings,
  type TNotificationSettingsUpdate,
  type TNotificationTemplate,
  type TNotificationTemplatePatch,
  type TNotificationTest,
  type TNotificationTestResult,
  type TJobPayload,
  type TPlaceholder,
  type TPrincipal,
  type TQueuedMessage,
  type TQuickActions,
  type TRecipientPreview,
  type TRejectionPreviewRequest,
  type TReminderSchedule,
  type TReminderScheduleUpdate,
  type TUploadLinkRequest,
  type TUploadLinkSendResult,
  REMINDER_SCHEDULE_DEFAULTS,
  UPLOAD_LINK_STAND_IN,
} from '../../contract';
import { readSystemSettings } from '../settings';
import { issueMessageLinks, linkMarker, withStandIns, type LinkIssue } from './notification-links';
import type { Db } from '../platform/db/client';
import type { DivisionScope } from '../platform/db/division-scope';
import { totalBesidePage } from '../platform/db/capped-count';
import { recordAuditEvent, type Actor } from '../audit';
import { enqueueJob } from '../platform/jobs/jobs.repository';
import {
  countNotificationHistory,
  listNotificationHistory,
  listPendingNotifications,
  recordNotificationHistory,
  settleNotification,
  type NotificationHistoryRow,
} from './notification-history.repository';
import {
  countDocumentsSince,
  countIncompletePlayers,
  findDocumentFamily,
  listAdministrators,
  listPlayersListFamilies,
  findSeasonFamily,
  listSeasonFamilies,
  type SeasonFamily,
} from './notification-recipients.repository';
import {
  findNotificationTemplate,
  findNotificationTemplateByName,
  listNotificationTemplates,
  lockNotificationTemplate,
  seedNotificationTemplates,
  updateNotificationTemplate,
  type NotificationTemplateRow,
} from './notification-templates.repository';
import { findCurrentSeason, resolveSeason, type SeasonRow } from '../seasons';
import { readExpiringRules } from '../reports';
import { AppError } from '../platform/errors';
import type { JobHandler } from '../platform/jobs/job-runner';
import type { Logger } from '../platform/logger';
import { ADDED_LATER_TEMPLATES, DEFAULT_NOTIFICATION_TEMPLATES, DOCUMENT_REJECTED_TEMPLATE, FILES_REFUSED_TEMPLATE, UPLOAD_LINK_TEMPLATE } from './notification-defaults';
import { findReminderSchedule, saveReminderSchedule } from './reminders.repository';
import { neededDocuments, upcomingReminders, type ExpiringRules } from './reminder-plan';

/** No season: nothing expires. */
const NO_EXPIRING: ExpiringRules = { until: '0000-01-01', lapsingTypes: [] };
import { findSubmissionFamily, lockAndCheckRefusalNotice } from './notification-refusals.repository';
import { mapWithLimit, NOT_SENT_ON_OUR_SIDE, openDeliveryBatch, type DeliveryDeps, type RenderedMessage } from './notification-delivery';
import { describeNeededDocuments, formatDeadline, renderHtml, renderText, type PlaceholderValues } from './notification-render';
import { deliveryProblemOf, readNotificationSettings, saveNotificationSettings } from './notification-settings';

/** A file refused at intake and the refusal's message (RefusedFile in the pipeline). */
export type RefusedFileNotice = { filename: string; reason: string };

/**
 * A refusal message as the family reads it. Some are written for the staff member reading the mailbox
 * screen ('…; ask the sender to send them again'); the family is the sender.
 */
export function reasonForFamily(reason: string): string {
  return reason.replace(/;\s*ask the sender to\s+/i, '; please ');
}

/** {{refusedFiles}}: one line a file, '- name: why'. */
export function describeRefusedFiles(files: readonly RefusedFileNotice[]): string {
  return files.map((file) => `- ${file.filename}: ${reasonForFamily(file.reason)}`).join('\n');
}

/** The job queue that sends scheduled messages (and finishes an immediate send cut short by a crash). */
export const NOTIFICATION_SEND_QUEUE = 'notification-send' satisfies TJobQueue;

const DAY_MS = 24 * 60 * 60_000;
/** {{deadline}} when the form leaves it out. */
const DEFAULT_DEADLINE_DAYS = 7;
/**
 * An immediate send is also queued as a job due this much later: if the instance dies mid-send, the job sends
 * what is still pending. Far longer than any send takes, so the two never race.
 */
const SAFETY_NET_DELAY_MS = 60 * 60_000;
/** Messages in flight at once in one send. */
const SEND_CONCURRENCY = 3;
const PREVIEW_SAMPLE_SIZE = 5;
const GUARDIAN_FALLBACK = 'Parent/Guardian';


export type NotificationsDeps = DeliveryDeps & {
  log: Logger;
  /** Wakes the job runner after a job was queued. */
  pokeJobs: () => void;
  now?: () => Date;
  /**
   * Where families' upload links point (scheme, host, port, no path): the configured public address, else the
   * staff request's origin for a send made from a request, else the server's own listen address.
   */
  uploadLinkOrigin: (requestOrigin?: string) => string;
  /** How many messages History counts exactly before it estimates (LIST_COUNT_CAP; tests lower it). */
  historyCountCap?: number;
};

type QueuedMessage = TQueuedMessage;

/**
 * One recipient of a send and the values of its placeholders; a family's message names its player and season
 * (History shows it to those whose divisions include the player's).
 */
type Addressee = { to: string; values: PlaceholderValues; about?: { playerId: string; seasonId: string } | undefined };

type PreparedSend = {
  channel: TNotificationChannel;
  templateId: string | null;
  subject: string;
  content: string;
  addressees: Addressee[];
  withoutEmail: number;
  season: SeasonRow | undefined;
};

const toTemplate = (row: NotificationTemplateRow): TNotificationTemplate => ({
  id: row.id,
  name: row.name,
  type: row.type,
  subject: row.subject,
  content: row.content,
  enabled: row.enabled,
  updatedAt: row.updatedAt.toISOString(),
});

const toHistoryItem = (row: NotificationHistoryRow) => ({
  id: row.id,
  type: row.type,
  recipient: row.recipient,
  subject: row.subject,
  status: row.status,
  sentAt: row.sentAt?.toISOString() ?? null,
  errorMessage: row.errorMessage,
  createdAt: row.createdAt.toISOString(),
  body: row.body,
});

const CHAT_RECIPIENT: Record<Exclude<TNotificationChannel, 'email'>, string> = { slack: 'Slack channel', teams: 'Microsoft Teams channel' };
const recipientLabel = (channel: TNotificationChannel, to: string) => (channel === 'email' ? to : CHAT_RECIPIENT[channel]);

/** Whom a previewed message is for, read after 'Preview for': the family of its player, a named person, or the address. */
function audienceOf(channel: TNotificationChannel, addressee: Addressee): string {
  if (channel !== 'email') return `the ${CHAT_RECIPIENT[channel]}`;
  const { playerName, guardianName } = addressee.values;
  if (addressee.about && playerName) return `the family of ${playerName}`;
  if (guardianName && guardianName !== GUARDIAN_FALLBACK) return `${guardianName} (${addressee.to})`;
  return addressee.to;
}

/** A family's values: the guardian, the player, and what the family has to send (missing, expired or expiring soon). */
const familyValues = (family: SeasonFamily, expiring: ExpiringRules): PlaceholderValues => ({
  guardianName: family.guardianName?.trim() || GUARDIAN_FALLBACK,
  playerName: `${family.firstName} ${family.lastName}`,
  missingDocuments: describeNeededDocuments(
    neededDocuments(
      { birth_certificate: family.birthCertificate, residency: family.residency, medical: family.medical, waiver: family.waiver },
      family.expiresOn,
      expiring,
    ),
  ),
});

/**
 * One addressee's message. {{uploadLink}} in an e-mail about a player becomes a marker, and the message carries
 * the (player, season, origin) its link is for: the link is issued when the message is delivered. Subjects,
 * and messages about no player, get the stand-in and nothing respectively.
 */
function render(channel: TNotificationChannel, subject: string, content: string, addressee: Addressee, origin = ''): RenderedMessage {
  const carriesLink = channel === 'email' && addressee.about !== undefined && findPlaceholders(content).includes('uploadLink');
  const marker = linkMarker(0);
  const values: PlaceholderValues = { ...addressee.values, uploadLink: carriesLink ? marker : '' };
  return {
    channel,
    to: addressee.to,
    subject: renderText(subject, { ...addressee.values, uploadLink: carriesLink ? UPLOAD_LINK_STAND_IN : '' }),
    text: renderText(content, values),
    html: channel === 'email' ? renderHtml(content, values) : '',
    links: carriesLink && addressee.about ? [{ marker, playerId: addressee.about.playerId, seasonId: addressee.about.seasonId, origin }] : undefined,
  };
}

/** render(), with a template Clearbase cannot fill answered as a validation failure (saved templates are checked, so a safety net). */
function renderOrRefuse(channel: TNotificationChannel, subject: string, content: string, addressee: Addressee, origin = ''): RenderedMessage {
  try {
    return render(channel, subject, content, addressee, origin);
  } catch (error) {
    throw new AppError('VALIDATION_FAILED', error instanceof Error ? error.message : String(error));
  }
}

/**
 * Inserts the template defaults into an empty table, and the defaults added in later versions into one that
 * lacks them; safe when several instances start at once.
 */
export function seedDefaultNotificationTemplates(db: Db): Promise<boolean> {
  return seedNotificationTemplates(db, DEFAULT_NOTIFICATION_TEMPLATES, ADDED_LATER_TEMPLATES);
}

/**
 * Sends the messages of a queued send that are still pending, and records each outcome in History. Safe to
 * re-run: a message already settled (sent, failed, or finished by the immediate send) is skipped.
 */
export function createNotificationSendHandler(deps: DeliveryDeps & { now?: () => Date }): JobHandler<TJobPayload<'notification-send'>> {
  const now = deps.now ?? (() => new Date());
  return async ({ messages }) => {
    const pending = new Set((await listPendingNotifications(deps.db, messages.map((m) => m.historyId))).map((row) => row.id));
    const due = messages.filter((message) => pending.has(message.historyId));
    if (due.length > 0) await deliverAndSettle(deps, due, now, { actor: 'system', why: 'sent' });
    return { kind: 'done' };
  };
}

/** How one delivered message went; `expiresAt`: when the upload link it carried stops working (null: none). */
export type Delivered = { status: 'sent' | 'failed'; error: string | null; expiresAt: Date | null };

/**
 * Delivers queued messages and settles their History rows. A message's upload links are issued right before
 * it goes to the mail server (by `issuer`, audited), so a message held back (e-mail off, no mail server) makes
 * none.
 */
export async function deliverAndSettle(
  deps: DeliveryDeps,
  messages: readonly QueuedMessage[],
  now: () => Date,
  issuer: Omit<LinkIssue, 'days' | 'now'>,
): Promise<Delivered[]> {
  const batch = await openDeliveryBatch(deps);
  const needsLinks = messages.some((message) => (message.links?.length ?? 0) > 0);
  const days = needsLinks ? (await readSystemSettings(deps.db)).uploadLinkDays : 0;
  try {
    return await mapWithLimit(messages, SEND_CONCURRENCY, async (message) => {
      let delivered: Delivered;
      const held = batch.heldBack(message.channel);
      if (held) {
        delivered = { status: 'failed', error: held, expiresAt: null };
      } else {
        try {
          const issued = await issueMessageLinks(deps.db, message, { ...issuer, days, now: now() });
          const outcome = await batch.deliver(issued.message);
          delivered = outcome.ok ? { status: 'sent', error: null, expiresAt: issued.expiresAt } : { status: 'failed', error: outcome.error, expiresAt: null };
        } catch (error) {
          deps.log?.error({ err: error }, 'could not issue the upload link of a message');
          delivered = { status: 'failed', error: NOT_SENT_ON_OUR_SIDE, expiresAt: null };
        }
      }
      await settleNotification(
        deps.db,
        message.historyId,
        delivered.status === 'sent' ? { status: 'sent', sentAt: now(), errorMessage: null } : { status: 'failed', sentAt: null, errorMessage: delivered.error },
      );
      return delivered;
    });
  } finally {
    batch.close();
  }
}

export function createNotificationsService(deps: NotificationsDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  async function seasonFor(yearOrId: string | undefined): Promise<SeasonRow | undefined> {
    if (yearOrId === undefined) return findCurrentSeason(db);
    const season = await resolveSeason(db, yearOrId);
    if (!season) throw new AppError('NOT_FOUND', `Season "${yearOrId}" does not exist.`);
    return season;
  }

  async function templateFor(id: string): Promise<NotificationTemplateRow> {
    const template = await findNotificationTemplate(db, id);
    if (!template) throw new AppError('NOT_FOUND', `Notification template ${id} does not exist.`);
    return template;
  }

  /**
   * The values every message of a send shares: season, deadline and, when the text uses them, last week's
   * figures (of the sender's divisions).
   */
  async function sharedValues(texts: string[], season: SeasonRow | undefined, deadline: string, scope: DivisionScope): Promise<PlaceholderValues> {
    const values: PlaceholderValues = { season: season?.name ?? '', deadline: formatDeadline(deadline) };
    const used = new Set(texts.flatMap(findPlaceholders));
    if (['received', 'approved', 'rejected', 'pending'].some((name) => used.has(name))) {
      const counts = await countDocumentsSince(db, new Date(now().getTime() - 7 * DAY_MS), scope);
      for (const [name, value] of Object.entries(counts)) values[name as TPlaceholder] = String(value);
    }
    return values;
  }

  /**
   * The messages of a send. Families are those of the principal's divisions only: 'All Parents' and 'Players
   * with Missing Documents' list them alone, and a custom address gets a family's details only from them.
   */
  async function prepare(send: TNotificationSendParsed, principal: TPrincipal): Promise<PreparedSend> {
    const scope = principal.divisions;
    let channel = send.channel;
    let subject = send.subject;
    let content = send.message;
    if (send.templateId !== null) {
      const template = await templateFor(send.templateId);
      if (!template.enabled) throw new AppError('CONFLICT', `The template '${template.name}' is turned off. Turn it on in Templates to send it.`);
      ({ type: channel, subject, content } = template);
      const problem = placeholderProblem(`${subject}\n${content}`, channel);
      if (problem) throw new AppError('VALIDATION_FAILED', `The template '${template.name}' cannot be sent: ${problem}`);
      if (!sendableByHand(template)) {
        throw new AppError(
          'VALIDATION_FAILED',
          `The template '${template.name}' is sent by Clearbase itself, when a document is rejected or a file is refused; it cannot be sent from here.`,
        );
      }
    }
    const season = await seasonFor(send.playersList?.season ?? send.season);
    const deadline = send.deadline ?? new Date(now().getTime() + DEFAULT_DEADLINE_DAYS * DAY_MS).toISOString().slice(0, 10);
    const shared = await sharedValues([subject, content], season, deadline, scope);
    const base = { channel, templateId: send.templateId, subject, content, season };

    if (channel !== 'email') return { ...base, addressees: [{ to: CHAT_RECIPIENT[channel], values: shared }], withoutEmail: 0 };

    if (send.recipients === 'administrators') {
      const admins = await listAdministrators(db);
      return {
        ...base,
        addressees: admins.map((admin) => ({ to: admin.email, values: { ...shared, guardianName: `${admin.firstName} ${admin.lastName}` } })),
        withoutEmail: 0,
      };
    }

    const [families, expiring]: [SeasonFamily[], ExpiringRules] = !season
      ? [[], NO_EXPIRING]
      : await Promise.all([
          send.recipients === 'players_list' && send.playersList
            ? listPlayersListFamilies(db, { ...send.playersList, season: season.id }, principal)
            : listSeasonFamilies(db, season.id, { onlyMissing: send.recipients === 'missing_documents', scope }),
          readExpiringRules(db, season.id),
        ]);
    const about = (family: SeasonFamily) => (season ? { playerId: family.playerId, seasonId: season.id } : undefined);
    if (send.recipients === 'custom') {
      // An address that is a guardian's in the season gets that family's details; others get the shared ones.
      const byEmail = new Map<string, SeasonFamily>();
      for (const family of families) {
        const key = family.guardianEmail?.trim().toLowerCase();
        if (key && !byEmail.has(key)) byEmail.set(key, family);
      }
      const { addresses } = parseRecipientList(send.customRecipients);
      const addressees = addresses.map((to) => {
        const family = byEmail.get(to.toLowerCase());
        return { to, values: { ...shared, guardianName: GUARDIAN_FALLBACK, ...(family ? familyValues(family, expiring) : {}) }, about: family && about(family) };
      });
      return { ...base, addressees, withoutEmail: 0 };
    }

    // One message per player: a guardian of two players gets one about each.
    const withEmail = families.filter((family) => family.guardianEmail?.trim());
    return {
      ...base,
      addressees: withEmail.map((family) => ({ to: family.guardianEmail?.trim() ?? '', values: { ...shared, ...familyValues(family, expiring) }, about: about(family) })),
      withoutEmail: families.length - withEmail.length,
    };
  }

  /**
   * The 'Document Rejected' message for a document (its default text when the template is gone), rendered for
   * its family with the reason: what the reject flow sends and what the reject dialog previews. `problem` says
   * why it would not go out (template off, no guardian e-mail). Undefined when the document is not found in
   * the scope.
   */
  async function rejectionNotice(documentId: string, reason: string, scope: DivisionScope, requestOrigin?: string) {
    const family = await findDocumentFamily(db, documentId, scope);
    if (!family) return undefined;
    const stored = await findNotificationTemplateByName(db, DOCUMENT_REJECTED_TEMPLATE);
    const fallback = DEFAULT_NOTIFICATION_TEMPLATES.find((t) => t.name === DOCUMENT_REJECTED_TEMPLATE);
    const template = stored ?? (fallback ? { ...fallback, id: null } : undefined);
    if (!template) return undefined;
    const to = family.guardianEmail?.trim() ?? '';
    const documentType = family.docType ? DOC_TYPE_LABELS[family.docType] : 'document';
    const values: PlaceholderValues = {
      guardianName: family.guardianName?.trim() || GUARDIAN_FALLBACK,
      playerName: `${family.firstName} ${family.lastName}`,
      documentType,
      rejectionReason: reason,
      season: family.seasonName,
      deadline: formatDeadline(new Date(now().getTime() + DEFAULT_DEADLINE_DAYS * DAY_MS).toISOString().slice(0, 10)),
      missingDocuments: documentType,
    };
    let problem: TDeliveryProblem | undefined;
    if (!template.enabled) problem = { reason: 'template_off', message: `The '${DOCUMENT_REJECTED_TEMPLATE}' template is turned off in Templates` };
    else if (!to) problem = { reason: 'no_guardian_email', message: `No guardian e-mail is on file for ${values.playerName ?? 'the player'}` };
    const message = render('email', template.subject, template.content, { to, values, about: { playerId: family.playerId, seasonId: family.seasonId } }, deps.uploadLinkOrigin(requestOrigin));
    return {
      templateId: template.id,
      playerId: family.playerId,
      seasonId: family.seasonId,
      to,
      values,
      subject: message.subject,
      text: message.text,
      html: message.html,
      links: message.links,
      problem,
    };
  }

  function reminderScheduleOf(season: SeasonRow, row: { enabled: boolean; daysBeforeDeadline: number[]; daysAfterRejection: number[] } | undefined): TReminderSchedule {
    const schedule = row ?? { enabled: REMINDER_SCHEDULE_DEFAULTS.enabled, daysBeforeDeadline: [...REMINDER_SCHEDULE_DEFAULTS.daysBeforeDeadline], daysAfterRejection: [...REMINDER_SCHEDULE_DEFAULTS.daysAfterRejection] };
    const deadline = season.registrationDeadline ?? season.endsOn;
    const on = schedule.enabled && season.closedAt === null;
    return {
      season: { id: season.id, name: season.name, registrationDeadline: deadline },
      enabled: schedule.enabled,
      daysBeforeDeadline: [...schedule.daysBeforeDeadline].sort((a, b) => b - a),
      daysAfterRejection: [...schedule.daysAfterRejection].sort((a, b) => b - a),
      upcoming: on ? upcomingReminders(now(), deadline, schedule) : [],
    };
  }

  return {
    async listTemplates(): Promise<{ templates: TNotificationTemplate[] }> {
      return { templates: (await listNotificationTemplates(db)).map(toTemplate) };
    },

    /** An edit, checked against the template's type, saved with its audit event. */
    async updateTemplate(id: string, patch: TNotificationTemplatePatch, actor: Actor): Promise<TNotificationTemplate> {
      return db.transaction(async (tx) => {
        const before = await lockNotificationTemplate(tx, id);
        if (!before) throw new AppError('NOT_FOUND', `Notification template ${id} does not exist.`);
        const details = (['subject', 'content'] as const).flatMap((field) => {
          const text = patch[field];
          const problem = text === undefined ? undefined : placeholderProblem(text, before.type);
          return problem ? [{ path: `body.${field}`, message: problem }] : [];
        });
        if (details.length > 0) throw new AppError('VALIDATION_FAILED', details.map((d) => d.message).join(' '), details);
        const after = await updateNotificationTemplate(tx, id, patch);
        if (!after) throw new AppError('NOT_FOUND', `Notification template ${id} does not exist.`);
        const changed = (Object.keys(patch) as Array<keyof TNotificationTemplatePatch>).filter((key) => before[key] !== after[key]);
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'notification_template.updated',
          subjectType: 'notification_template',
          subjectId: id,
          detail: { changed, ...(changed.includes('enabled') ? { enabled: after.enabled } : {}) },
          requestId: actor.requestId,
        });
        return toTemplate(after);
      });
    },

    /**
     * How many messages the send would make, and to whom (the first few), the first one as its recipient gets
     * it, and why none could be delivered now (no mail server, the channel switched off); sends nothing.
     */
    async preview(send: TNotificationSendParsed, principal: TPrincipal): Promise<TRecipientPreview> {
      const [prepared, settings] = await Promise.all([prepare(send, principal), readNotificationSettings(deps)]);
      const deliveryProblem = deliveryProblemOf(settings, prepared.channel);
      const first = prepared.addressees[0];
      let message: TMessagePreview | null = null;
      if (first) {
        const rendered = renderOrRefuse(prepared.channel, prepared.subject, prepared.content, first);
        message = { audience: audienceOf(prepared.channel, first), to: first.to, subject: rendered.subject, body: withStandIns(rendered.text, rendered.links), deliveryProblem };
      }
      return {
        channel: prepared.channel,
        count: prepared.addressees.length,
        sample: prepared.addressees.slice(0, PREVIEW_SAMPLE_SIZE).map((a) => a.to),
        withoutEmail: prepared.withoutEmail,
        season: prepared.season ? { id: prepared.season.id, name: prepared.season.name } : null,
        message,
        deliveryProblem,
      };
    },

    /** The message rejecting this document with this reason would e-mail its guardian (a document of the principal's divisions). */
    async previewRejection(request: TRejectionPreviewRequest, principal: TPrincipal): Promise<TMessagePreview> {
      const notice = await rejectionNotice(request.documentId, request.reason, principal.divisions);
      if (!notice) throw new AppError('NOT_FOUND', `Document ${request.documentId} does not exist.`);
      const settings = await readNotificationSettings(deps);
      return {
        audience: `the family of ${notice.values.playerName ?? 'the player'}`,
        to: notice.to,
        subject: notice.subject,
        body: withStandIns(notice.text, notice.links),
        deliveryProblem: notice.problem ?? deliveryProblemOf(settings, 'email'),
      };
    },

    /**
     * Renders one message per recipient and records each in History as pending, with its job, in one transaction.
     * Scheduled: the job runs at that time, on whichever instance is up then. Now: the messages go out at once
     * and their rows are settled; the job, due an hour later, only finishes what a crash left pending.
     */
    async send(send: TNotificationSendParsed, actor: Actor, requestOrigin?: string): Promise<TNotificationSendResult> {
      const scheduledAt = send.scheduledAt === undefined ? undefined : new Date(send.scheduledAt);
      if (scheduledAt && scheduledAt.getTime() <= now().getTime()) {
        throw new AppError('VALIDATION_FAILED', 'The scheduled time has passed: choose a time in the future, or send now.', [
          { path: 'body.scheduledAt', message: 'must be in the future' },
        ]);
      }
      const prepared = await prepare(send, actor.principal);
      if (prepared.addressees.length === 0) {
        const group = prepared.channel === 'email' ? RECIPIENT_KIND_LABELS[send.recipients] : CHANNEL_LABELS[prepared.channel];
        const where = prepared.season && send.recipients !== 'administrators' ? ` in ${prepared.season.name}` : '';
        throw new AppError('VALIDATION_FAILED', `Nobody to send to: ${group}${where} has no e-mail addresses.`);
      }
      const origin = deps.uploadLinkOrigin(requestOrigin);
      const rendered = prepared.addressees.map((addressee) => renderOrRefuse(prepared.channel, prepared.subject, prepared.content, addressee, origin));

      const queued = await db.transaction(async (tx) => {
        const rows = await recordNotificationHistory(
          tx,
          rendered.map((message, index) => ({
            templateId: prepared.templateId,
            type: message.channel,
            recipient: recipientLabel(message.channel, message.to),
            subject: message.subject,
            status: 'pending' as const,
            sentAt: scheduledAt ?? null,
            playerId: prepared.addressees[index]?.about?.playerId ?? null,
            seasonId: prepared.addressees[index]?.about?.seasonId ?? null,
            body: withStandIns(message.text, message.links),
          })),
        );
        const messages: QueuedMessage[] = rendered.map((message, index) => ({ historyId: rows[index]?.id ?? '', ...message }));
        await enqueueJob(tx, {
          queue: NOTIFICATION_SEND_QUEUE,
          payload: { messages },
          runAt: scheduledAt ?? new Date(now().getTime() + SAFETY_NET_DELAY_MS),
        });
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: scheduledAt ? 'notifications.scheduled' : 'notifications.sent',
          subjectType: 'notification_template',
          subjectId: prepared.templateId,
          detail: { channel: prepared.channel, recipients: send.recipients, messages: messages.length, scheduledAt: scheduledAt?.toISOString() ?? null },
          requestId: actor.requestId,
        });
        return messages;
      });

      if (scheduledAt) {
        deps.pokeJobs();
        return { sent: 0, failed: 0, pending: queued.length };
      }
      const outcomes = await deliverAndSettle(deps, queued, now, { actor: actor.principal, why: 'sent', requestId: actor.requestId });
      const sent = outcomes.filter((o) => o.status === 'sent').length;
      return { sent, failed: outcomes.length - sent, pending: 0 };
    },

    /**
     * E-mails a player's guardian a new personal upload link now (the 'Upload Link' template), recorded in History
     * and audited. The player must be registered for the season in one of the principal's divisions.
     */
    async sendUploadLink(playerId: string, request: TUploadLinkRequest, actor: Actor, requestOrigin?: string): Promise<TUploadLinkSendResult> {
      const season = await resolveSeason(db, request.season);
      const family = season ? await findSeasonFamily(db, playerId, season.id, actor.principal.divisions) : undefined;
      if (!season || !family) throw new AppError('NOT_FOUND', `Player ${playerId} is not registered for that season.`);
      const playerName = `${family.firstName} ${family.lastName}`;
      const to = family.guardianEmail?.trim() ?? '';
      if (!to) throw new AppError('CONFLICT', `No guardian e-mail is on file for ${playerName}: add one on the player's page, or copy the link instead.`);
      const stored = await findNotificationTemplateByName(db, UPLOAD_LINK_TEMPLATE);
      const fallback = DEFAULT_NOTIFICATION_TEMPLATES.find((t) => t.name === UPLOAD_LINK_TEMPLATE);
      const template = stored ?? (fallback ? { ...fallback, id: null } : undefined);
      if (!template?.enabled) throw new AppError('CONFLICT', `The '${UPLOAD_LINK_TEMPLATE}' template is turned off. Turn it on in Notifications → Templates to send links.`);
      const settings = await readNotificationSettings(deps);
      const problem = deliveryProblemOf(settings, 'email');
      if (problem) throw new AppError('CONFLICT', problem.message);

      const deadline = season.registrationDeadline ?? season.endsOn;
      const values: PlaceholderValues = { ...familyValues(family, await readExpiringRules(db, season.id)), season: season.name, deadline: formatDeadline(deadline) };
      const message = renderOrRefuse('email', template.subject, template.content, { to, values, about: { playerId, seasonId: season.id } }, deps.uploadLinkOrigin(requestOrigin));
      if (!message.links?.length) throw new AppError('CONFLICT', `The '${UPLOAD_LINK_TEMPLATE}' template has no {{uploadLink}}: add it in Notifications → Templates.`);
      const queued = await db.transaction(async (tx) => {
        const [row] = await recordNotificationHistory(tx, [
          {
            templateId: template.id,
            type: 'email',
            recipient: to,
            subject: message.subject,
            status: 'pending',
            sentAt: null,
            playerId,
            seasonId: season.id,
            body: withStandIns(message.text, message.links),
          },
        ]);
        if (!row) throw new Error('the History row was not recorded');
        const queuedMessage: QueuedMessage = { historyId: row.id, ...message };
        await enqueueJob(tx, { queue: NOTIFICATION_SEND_QUEUE, payload: { messages: [queuedMessage] }, runAt: new Date(now().getTime() + SAFETY_NET_DELAY_MS) });
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'notifications.sent',
          subjectType: 'player',
          subjectId: playerId,
          detail: { channel: 'email', recipients: 'upload_link', messages: 1, seasonId: season.id, historyId: row.id },
          requestId: actor.requestId,
        });
        return queuedMessage;
      });
      const [outcome] = await deliverAndSettle(deps, [queued], now, { actor: actor.principal, why: 'sent', requestId: actor.requestId });
      const expiresAt = outcome?.expiresAt ?? new Date(now().getTime() + (await readSystemSettings(db)).uploadLinkDays * DAY_MS);
      return { to, status: outcome?.status ?? 'failed', expiresAt: expiresAt.toISOString(), error: outcome?.error ?? null };
    },

    /** A season's automatic reminders (the defaults, off, until saved) and the days the next go out. */
    async readReminderSchedule(query: { season?: string | undefined }): Promise<TReminderSchedule> {
      const season = await seasonFor(query.season);
      if (!season) throw new AppError('NOT_FOUND', 'There is no season yet: add one in Seasons first.');
      return reminderScheduleOf(season, await findReminderSchedule(db, season.id));
    },

    /** Saves a season's automatic reminders, audited. */
    async saveReminderSchedule(update: TReminderScheduleUpdate, actor: Actor): Promise<TReminderSchedule> {
      const season = await seasonFor(update.season);
      if (!season) throw new AppError('NOT_FOUND', `Season "${update.season}" does not exist.`);
      const saved = await db.transaction(async (tx) => {
        const row = await saveReminderSchedule(tx, {
          seasonId: season.id,
          enabled: update.enabled,
          daysBeforeDeadline: update.daysBeforeDeadline,
          daysAfterRejection: update.daysAfterRejection,
        });
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'reminders.updated',
          subjectType: 'season',
          subjectId: season.id,
          detail: { enabled: row.enabled, daysBeforeDeadline: row.daysBeforeDeadline, daysAfterRejection: row.daysAfterRejection },
          requestId: actor.requestId,
        });
        return row;
      });
      return reminderScheduleOf(season, saved);
    },

    /** Messages about players of the principal's divisions; those about no player, only for a principal of every division. */
    async listHistory(query: { page: number; pageSize: number }, principal: TPrincipal): Promise<TNotificationHistory> {
      const page = { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
      const [rows, counted] = await Promise.all([
        listNotificationHistory(db, page.limit, page.offset, principal.divisions),
        countNotificationHistory(db, principal.divisions, deps.historyCountCap),
      ]);
      // Counted exactly up to a cap, estimated past it, and made to agree with the page read beside it.
      const { total, isEstimate } = totalBesidePage(counted, page, rows.length);
      return { items: rows.map(toHistoryItem), total, totalIsEstimate: isEstimate, page: query.page, pageSize: query.pageSize };
    },

    /** The quick actions' counts, of the principal's divisions. */
    async quickActions(query: { season?: string | undefined }, principal: TPrincipal): Promise<TQuickActions> {
      const season = await seasonFor(query.season);
      const [players, administrators, lastWeek] = await Promise.all([
        season ? countIncompletePlayers(db, season.id, principal.divisions) : Promise.resolve({ incomplete: 0, missing: 0, missingWithEmail: 0 }),
        listAdministrators(db).then((admins) => admins.length),
        countDocumentsSince(db, new Date(now().getTime() - 7 * DAY_MS), principal.divisions),
      ]);
      return {
        season: season ? { id: season.id, name: season.name } : null,
        incompletePlayers: players.incomplete,
        missingDocuments: { players: players.missing, withEmail: players.missingWithEmail },
        administrators,
        lastWeek,
      };
    },

    /** The Settings tab; the mail server's details and the webhook hints only for a principal who may configure them. */
    async readSettings(principal: TPrincipal): Promise<TNotificationSettings> {
      const settings = await readNotificationSettings(deps);
      return principalCan(principal, 'notifications.configure') ? settings : withoutDestinations(settings);
    },

    saveSettings(update: TNotificationSettingsUpdate, actor: Actor): Promise<TNotificationSettings> {
      return saveNotificationSettings(deps, update, actor);
    },

    /** One real message on a channel, switched on or not (it tests the destination); recorded in History. */
    async sendTest(test: TNotificationTest, actor: Actor): Promise<TNotificationTestResult> {
      const at = now();
      const to = test.channel === 'email' ? (test.to ?? '') : CHAT_RECIPIENT[test.channel];
      const message: RenderedMessage = {
        channel: test.channel,
        to,
        subject: 'Clearbase test message',
        text: `This is a test message from Clearbase, sent ${at.toISOString()}. ${CHANNEL_LABELS[test.channel]} notifications reach this destination.`,
        html: '',
      };
      message.html = renderHtml(message.text, {});
      const batch = await openDeliveryBatch(deps, { ignoreSwitches: true });
      const outcome = await batch.deliver(message).finally(() => batch.close());
      await recordNotificationHistory(db, [
        {
          type: test.channel,
          recipient: recipientLabel(test.channel, to),
          subject: message.subject,
          status: outcome.ok ? 'sent' : 'failed',
          sentAt: outcome.ok ? now() : null,
          errorMessage: outcome.ok ? null : outcome.error,
          body: message.text,
        },
      ]);
      deps.log.info({ channel: test.channel, ok: outcome.ok, requestId: actor.requestId }, 'notification test sent');
      return outcome.ok
        ? { ok: true, message: test.channel === 'email' ? `Test e-mail sent to ${to}.` : `Test message posted to the ${CHANNEL_LABELS[test.channel]} webhook.` }
        : { ok: false, message: outcome.error };
    },

    /**
     * Tells the guardian why a document was rejected, with the 'Document Rejected' template (its default text
     * when the template is gone). Called after the rejection committed; never throws: whatever goes wrong is
     * recorded in History as a failed message.
     */
    async notifyDocumentRejected(documentId: string, reason: string): Promise<void> {
      try {
        const notice = await rejectionNotice(documentId, reason, null);
        if (!notice) return;
        let error = notice.problem?.message;
        if (!error) {
          const batch = await openDeliveryBatch(deps);
          try {
            error = batch.heldBack('email') ?? undefined;
            if (!error) {
              // The link is issued only for a message the mail server is about to take.
              const days = (await readSystemSettings(db)).uploadLinkDays;
              const { message } = await issueMessageLinks(
                db,
                { channel: 'email' as const, to: notice.to, subject: notice.subject, text: notice.text, html: notice.html, links: notice.links },
                { actor: 'system', why: 'rejected', days, now: now() },
              );
              const outcome = await batch.deliver(message);
              if (!outcome.ok) error = outcome.error;
            }
          } finally {
            batch.close();
          }
        }
        await recordNotificationHistory(db, [
          {
            templateId: notice.templateId,
            playerId: notice.playerId,
            seasonId: notice.seasonId,
            type: 'email',
            recipient: notice.to || '(no guardian e-mail)',
            subject: notice.subject,
            status: error ? 'failed' : 'sent',
            sentAt: error ? null : now(),
            errorMessage: error ?? null,
            body: withStandIns(notice.text, notice.links),
          },
        ]);
      } catch (error) {
        deps.log.error({ err: error, documentId }, 'could not notify the guardian of a rejected document');
      }
    },

    /**
     * Tells the family which files of a submission were refused at intake, and why, with the 'File Not Accepted'
     * template (its default text when the template is gone); run by the refused-files-notice job the pipeline
     * queues with the submission. Nothing is sent, and History is left alone, when no mail server is set up,
     * e-mail notifications are switched off, the template is turned off or the family left no e-mail.
     *
     * Once per submission, and per later record of the same one (a staff retry replaces a failed submission):
     * under a lock on the submission's row, an audit event keyed by it is checked, then written with the
     * message's History row (pending) and a safety-net send job, in one transaction; the message goes out after
     * the commit. A run repeated (the job retried, a second instance) finds the event and sends nothing. Throws
     * only when the database fails, for the job to try again.
     */
    async notifyFilesRefused(notice: { submissionId: string; files: readonly RefusedFileNotice[] }): Promise<'sent' | 'failed' | 'not sent'> {
      const notSent = (why: string) => {
        deps.log.info({ submissionId: notice.submissionId, why }, 'the family was not told of the refused files');
        return 'not sent' as const;
      };
      const family = await findSubmissionFamily(db, notice.submissionId);
      if (!family) return notSent('the submission is gone or was matched to no player');
      if (!family.guardianEmail) return notSent('no guardian e-mail');
      const stored = await findNotificationTemplateByName(db, FILES_REFUSED_TEMPLATE);
      const fallback = DEFAULT_NOTIFICATION_TEMPLATES.find((t) => t.name === FILES_REFUSED_TEMPLATE);
      const template = stored ?? (fallback ? { ...fallback, id: null } : undefined);
      if (!template?.enabled) return notSent(`the '${FILES_REFUSED_TEMPLATE}' template is turned off`);
      const settings = await readNotificationSettings(deps);
      if (settings.email.source === 'none') return notSent('no mail server is set up');
      if (!settings.switches.email) return notSent('e-mail notifications are turned off');

      const values: PlaceholderValues = {
        guardianName: family.guardianName ?? GUARDIAN_FALLBACK,
        playerName: `${family.firstName} ${family.lastName}`,
        season: family.seasonName,
        refusedFiles: describeRefusedFiles(notice.files),
        deadline: formatDeadline(new Date(now().getTime() + DEFAULT_DEADLINE_DAYS * DAY_MS).toISOString().slice(0, 10)),
      };
      let message: RenderedMessage;
      try {
        message = render('email', template.subject, template.content, { to: family.guardianEmail, values });
      } catch (error) {
        // A stored template is checked when saved; this is a safety net, as for a send.
        return notSent(error instanceof Error ? error.message : String(error));
      }

      const queued = await db.transaction(async (tx) => {
        if ((await lockAndCheckRefusalNotice(tx, family)) !== 'not told') return undefined;
        const [row] = await recordNotificationHistory(tx, [
          {
            templateId: template.id,
            playerId: family.playerId,
            seasonId: family.seasonId,
            type: 'email',
            recipient: message.to,
            subject: message.subject,
            status: 'pending',
            sentAt: null,
            body: message.text,
          },
        ]);
        if (!row) throw new Error('the History row was not recorded');
        const queuedMessage: QueuedMessage = { historyId: row.id, ...message };
        await enqueueJob(tx, { queue: NOTIFICATION_SEND_QUEUE, payload: { messages: [queuedMessage] }, runAt: new Date(now().getTime() + SAFETY_NET_DELAY_MS) });
        await recordAuditEvent(tx, {
          actor: 'system',
          action: 'submission.refusal_notified',
          subjectType: 'submission',
          subjectId: family.submissionId,
          detail: { source: family.source, externalId: family.externalId, files: notice.files.length, historyId: row.id },
        });
        return queuedMessage;
      });
      if (!queued) return notSent('the family was told already');
      const [outcome] = await deliverAndSettle(deps, [queued], now, { actor: 'system', why: 'sent' });
      return outcome?.status ?? 'failed';
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;

/** The Settings tab as someone who may not configure notifications sees it: what is set up, not where it points. */
function withoutDestinations(settings: TNotificationSettings): TNotificationSettings {
  return {
    email: { passwordSet: settings.email.passwordSet, source: settings.email.source },
    slackWebhook: { set: settings.slackWebhook.set, hint: null },
    teamsWebhook: { set: settings.teamsWebhook.set, hint: null },
    switches: settings.switches,
  };
}
