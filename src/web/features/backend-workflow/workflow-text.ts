import { PIPELINE_STAGES, type TInstallation, type TPipelineStageId } from '../../../contract';

/** '20 MB' for a whole number of megabytes (1 MB = 1024 × 1024 bytes), else two decimals. */
export function fileSizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (Number.isInteger(mb)) return `${mb} MB`;
  if (bytes >= 1024 * 1024) return `${mb.toFixed(2)} MB`;
  return `${(bytes / 1024).toFixed(2)} KB`;
}

/** 'PDF, JPEG image, PNG image, HEIC image and TIFF image'. */
export function acceptedTypesText(types: TInstallation['acceptedFileTypes']): string {
  const labels = types.map((type) => type.label);
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1) ?? ''}`;
}

/** Every accepted file-name ending, as a parent would see them: '.pdf, .jpg, .jpeg, …'. */
export const acceptedExtensionsText = (types: TInstallation['acceptedFileTypes']): string =>
  types.flatMap((type) => type.extensions.map((extension) => `.${extension}`)).join(', ');

export const retentionText = (years: number): string => `${years} ${years === 1 ? 'year' : 'years'}`;

export const minutesText = (ms: number): string => {
  const minutes = Math.round(ms / 60_000);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
};

export type StageState = 'on' | 'off' | 'warning';

export type PipelineStage = {
  id: TPipelineStageId;
  title: string;
  /** What the stage does, with this installation's figures. */
  description: string;
  /** How it is set up here, in a few words; undefined for stages that are always the same. */
  here?: { state: StageState; text: string };
};

const STORAGE_WORDS: Record<TInstallation['storage']['driver'], string> = { local: 'local encrypted storage', s3: 'Amazon S3' };

/** The pipeline's stages in the order the server runs them (the contract's list), each explained and set against this installation. */
export function pipelineStages(installation: TInstallation): PipelineStage[] {
  const { antivirus, mailbox, storage } = installation;
  const intakeParts = [
    installation.formWebhookConfigured ? 'form webhook on' : 'form webhook not configured',
    mailbox.configured && mailbox.intervalMs !== null ? `mailbox checked every ${minutesText(mailbox.intervalMs)}` : 'mailbox not configured',
  ];
  const intakeState: StageState = installation.formWebhookConfigured || mailbox.configured ? 'on' : 'warning';
  const scan: PipelineStage['here'] = !antivirus.scanningOn
    ? { state: 'off', text: 'Turned off in Settings: files are stored unscanned' }
    : antivirus.clamdConfigured
      ? { state: 'on', text: `ClamAV at ${antivirus.clamdLocation ?? 'the configured address'}` }
      : { state: 'warning', text: 'On, but no ClamAV is configured (CLAMD_URL): files are stored unscanned' };

  const explained: Record<TPipelineStageId, Omit<PipelineStage, 'id' | 'title'>> = {
    intake: {
      description:
        'A submission arrives from the registration form (a signed webhook) or from the monitored mailbox, which the scheduler checks for unread e-mail. Each becomes one submission, recorded once even if it arrives twice.',
      here: { state: intakeState, text: intakeParts.join('; ') },
    },
    extract: {
      description:
        'The player’s name, date of birth, division and season are read from the form fields or from the e-mail’s “Key: value” lines; the sender’s address is kept as the guardian’s e-mail.',
    },
    validate: {
      description: `Each file is downloaded (form links only from allowed hosts), recognised by its first bytes (never by its name) and opened before it is kept: an image is decoded to its last pixel, a PDF is read page by page. ${acceptedTypesText(installation.acceptedFileTypes)}, at most ${fileSizeText(installation.maxFileBytes)}. A damaged, incomplete or password-protected file, or anything else, is refused with the reason.`,
      here: { state: 'on', text: `Up to ${fileSizeText(installation.maxFileBytes)}` },
    },
    scan: {
      description: 'The file is scanned before it is stored; an infected file is rejected with the virus’s name and nothing is kept. If the scanner cannot be reached the file waits and is tried again.',
      here: scan,
    },
    hash: {
      description: 'The file’s SHA-256 fingerprint is computed: the same file sent twice for a player is recognised as a duplicate, and the first 8 characters go into the stored file name.',
    },
    'player-id': {
      description: `The player id is derived from the normalised first name, last name and birth date: ${installation.playerId.format}. The same child sent by form and by e-mail lands on the same player.`,
    },
    'doc-type': {
      description:
        'The type (birth certificate, residency proof, medical form, liability waiver) comes from the form field, else from the file name, else, for a single attachment, from the e-mail’s subject or body. A file that says neither takes the type its content shows once it is read (the last step), else waits for staff review; when the content disagrees with the declared type, review says so.',
    },
    rename: {
      description: `The file gets a predictable name and folder: ${installation.storedPath.format}. Names are reduced to plain letters, digits and underscores.`,
    },
    store: {
      description: 'The file is encrypted with its own AES-256-GCM key (itself encrypted with the master key) and written to storage under its new name.',
      here: { state: 'on', text: `${STORAGE_WORDS[storage.driver]}: ${storage.location}` },
    },
    record: {
      description: `The document is recorded as Under Review with its size, fingerprint and storage key, to be kept ${retentionText(installation.retentionYears)} after upload; then it is deleted and a tombstone row remains.`,
      here: { state: 'on', text: `Kept ${retentionText(installation.retentionYears)}` },
    },
    notify: {
      description: 'Every step is written to the audit log in the same transaction as the change. Open screens update at once over the live connection, and the enabled notification channels are told.',
    },
    read: {
      description:
        'Once stored, the document is read on this server, never by an outside service: a PDF’s own text directly, a scan or photo by OCR (straightened and its contrast corrected first). The type, the child’s name, the date of birth and the document’s date are found and checked against the registration, for review. The text is kept encrypted like the file, searchable by staff who may open files, and deleted with the file. It runs after the document is shown, one at a time, and can be turned off in Settings → System.',
    },
  };
  return PIPELINE_STAGES.map((stage) => ({ id: stage.id, title: stage.title, ...explained[stage.id] }));
}

/** The stored path of the worked example cut into its folder and file name, for display. */
export function splitStoredPath(storedPath: string): { folder: string; fileName: string } {
  const at = storedPath.lastIndexOf('/');
  return at < 0 ? { folder: '', fileName: storedPath } : { folder: storedPath.slice(0, at + 1), fileName: storedPath.slice(at + 1) };
}
