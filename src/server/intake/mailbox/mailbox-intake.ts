import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Storage } from '../../adapters/storage/port';
import type { Db } from '../../platform/db/client';
import { findCurrentSeason, registrationRefusal, resolveSeason } from '../../seasons';
import { recordFailedSubmission, recordStagedSubmission, discardStaged, stagedKey, type IntakeResult, type RefusedFile, type StagedFile } from '../../pipeline';
import { attachmentDocType, MAX_MAIL_DOCUMENTS, readPlayerDetails, selectAttachments } from './mail-fields';
import { mailExternalId } from './mail-identity';
import { MailTooLargeError, readMessage, type MessageIdentity, type ReadMessage } from './read-message';

export type MailIntakeDeps = {
  db: Db;
  storage: Storage;
  masterKey: Buffer;
  idPrefix: string;
  maxFileBytes: number;
  /** Wakes the pipeline workers once a submission with documents is committed. */
  onRecorded: () => void;
};

/** Every document at the cap, base64-encoded (4/3), plus room for the text. */
export const maxMessageBytes = (maxFileBytes: number) => Math.ceil(((MAX_MAIL_DOCUMENTS + 4) * maxFileBytes * 4) / 3) + 10 * 1_048_576;

export type MailIntakeResult = IntakeResult & { externalId: string };

/**
 * One e-mail, streamed from the mailbox, into one submission (source `mailbox`, external id from its
 * Message-ID and content, mail-identity.ts, so the same mail is never recorded twice and another mail
 * reusing its Message-ID is still recorded). Its attachments are staged as they stream by; the player comes from the mail's text
 * (mail-fields.ts). A mail staff must act on (no player details, no documents) is recorded `failed` with
 * the reason and its staged files are dropped. Infrastructure failures (the mailbox stream, storage, the
 * database) reject with nothing recorded, so the mail stays unread and is tried again.
 */
export async function receiveMail(deps: MailIntakeDeps, raw: Readable, options: { receivedAt: Date; replaces?: string }): Promise<MailIntakeResult> {
  const submissionId = randomUUID();
  /** The submission a mail becomes; its identity is its Message-ID and content (mail-identity.ts). */
  const submissionOf = (mail: MessageIdentity & { date: Date | null; fromAddress: string | null; subject: string | null }) => ({
    id: submissionId,
    source: 'mailbox' as const,
    externalId: mailExternalId(mail),
    receivedAt: mail.date ?? options.receivedAt,
    fromEmail: mail.fromAddress,
    subject: mail.subject,
    replaces: options.replaces,
  });
  let read: ReadMessage;
  try {
    read = await readMessage(raw, {
      storage: deps.storage,
      masterKey: deps.masterKey,
      maxFileBytes: deps.maxFileBytes,
      stagingKey: (index) => stagedKey(submissionId, index),
      maxMessageBytes: maxMessageBytes(deps.maxFileBytes),
    });
  } catch (error) {
    if (!(error instanceof MailTooLargeError)) throw error;
    // Reading it again would fail the same way: record it for staff, as any mail they must act on.
    const failed = submissionOf(error.headers);
    const result = await recordFailedSubmission(deps.db, {
      ...failed,
      fields: {},
      errorMessage: `${error.message} Ask the sender to send the documents in several e-mails.`,
      attachmentCount: 0,
    });
    return { ...result, externalId: failed.externalId };
  }

  const base = submissionOf({ ...read, fromAddress: read.summary.fromAddress, subject: read.summary.subject });
  const { externalId } = base;
  const selection = selectAttachments(read.parts, { html: read.summary.html });
  const fail = async (errorMessage: string, fields: Record<string, string | null>): Promise<MailIntakeResult> => {
    await discardStaged(deps.storage, read.files.flatMap((file) => (file.kind === 'staged' ? [file.stagedKey] : [])));
    // Counted as for a recorded mail: the documents it sent, not its logos or quoted copies.
    const attachmentCount = selection.documents.length + selection.refused.length;
    const result = await recordFailedSubmission(deps.db, { ...base, fields, errorMessage, attachmentCount });
    return { ...result, externalId };
  };

  const details = readPlayerDetails(read.summary);
  // A mail whose every file is refused (only a winmail.dat, an encrypted mail) is recorded with its player
  // when its details can be read, its files as refused documents: the submission fails with the same reason,
  // and the family is told which files and why, as for any refused file.
  const onlyRefused = selection.documents.length === 0 && selection.refused.length > 0;
  if (selection.error !== null && !(onlyRefused && details.ok)) return fail(selection.error, details.ok ? { ...details.player } : {});
  if (!details.ok) return fail(details.error, {});
  const { player } = details;
  const seasonRow = player.season ? await resolveSeason(deps.db, player.season) : await findCurrentSeason(deps.db);
  if (!seasonRow) {
    return fail(
      player.season ? `Unknown season "${player.season}": add the season in Clearbase, then retry this e-mail` : 'No season exists yet: add a season, then retry this e-mail',
      { ...player },
    );
  }
  const refusal = registrationRefusal(seasonRow, player.division);
  if (refusal) {
    const remedy = refusal.field === 'season' ? 'reopen it in Settings → Seasons' : 'add the division to the season in Settings → Seasons';
    return fail(`${refusal.message} Tell the family, or ${remedy}, then retry this e-mail`, { ...player });
  }
  const season = seasonRow.id;

  // Skipped parts (logos, .eml copies, the body's own text) were staged as they streamed by: drop them.
  const kept = new Set(selection.documents.map((document) => document.index));
  await discardStaged(
    deps.storage,
    read.files.flatMap((file, index) => (file.kind === 'staged' && !kept.has(index) ? [file.stagedKey] : [])),
  );
  const files: Array<StagedFile | RefusedFile> = [];
  for (const { index, filename } of selection.documents) {
    const file = read.files[index];
    if (!file) continue;
    const declaredType = attachmentDocType(filename, read.summary, selection.documents.length).docType;
    // Refused files keep validate's reason ('Attachment is not a PDF or image', 'The file is empty', …).
    files.push({ ...file, originalFilename: filename, declaredType });
  }
  for (const refusedPart of selection.refused) {
    const file = read.files[refusedPart.index];
    if (file?.kind === 'staged') await discardStaged(deps.storage, [file.stagedKey]);
    files.push({ kind: 'refused', originalFilename: refusedPart.filename, declaredType: null, code: refusedPart.code, message: refusedPart.message, bytes: file?.bytes ?? 0 });
  }

  const result = await recordStagedSubmission(deps, { ...base, player: { ...player, season }, files });
  return { ...result, externalId };
}
