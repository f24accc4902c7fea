import { z } from 'zod';
import { ZSignInMode } from './access';
import { DEFAULT_REJECT_REASONS, MAX_REJECT_REASON_LENGTH, MAX_REJECT_REASONS } from './requirements';
import { UPLOAD_LINK_DAYS } from './upload-links';

/**
 * System Settings: the switches and fields staff change at run time.
 * Stored in the `settings` table under one key; values never set read as the defaults below.
 * File encryption and audit logging are not settings: they are always on (the screen shows them locked).
 */
export const SESSION_TIMEOUT_MINUTES = { min: 5, max: 24 * 60, default: 60 } as const;

export const ZSystemSettings = z.object({
  /** Off: the pipeline stores files without a clamd scan, and health shows antivirus as a warning. */
  antivirusScanning: z.boolean(),
  /**
   * Off: documents are stored and reviewed as before, without their text being read (no OCR, no extracted
   * facts, no checks, no search inside them). Documents that arrive while it is off are not read later.
   */
  documentReading: z.boolean(),
  /** Off: the live connection (/ws) is refused and screens fall back to their polling intervals. */
  realtimeUpdates: z.boolean(),
  /** Idle minutes after which the server ends a session. */
  sessionTimeoutMinutes: z
    .number({ error: 'must be a whole number of minutes' })
    .int('must be a whole number of minutes')
    .min(SESSION_TIMEOUT_MINUTES.min, `must be at least ${SESSION_TIMEOUT_MINUTES.min} minutes`)
    .max(SESSION_TIMEOUT_MINUTES.max, `must be at most ${SESSION_TIMEOUT_MINUTES.max} minutes (24 hours)`),
  /** How staff sign in: the shared password, personal accounts, or both (Settings → Security). */
  signInMode: ZSignInMode,
  /** Admins with a personal account must use two-step sign-in (they are asked to set it up at their next sign-in). */
  requireTwoFactorForAdmins: z.boolean(),
  /** Gates every e-mail notification. */
  emailNotifications: z.boolean(),
  /** Gates messages to the Slack incoming webhook. */
  slackNotifications: z.boolean(),
  /** Gates messages to the Microsoft Teams incoming webhook. */
  teamsNotifications: z.boolean(),
  /** Days a family's upload link works after it is issued. */
  uploadLinkDays: z
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(UPLOAD_LINK_DAYS.min, `must be at least ${UPLOAD_LINK_DAYS.min} day`)
    .max(UPLOAD_LINK_DAYS.max, `must be at most ${UPLOAD_LINK_DAYS.max} days`),
  /** The reasons a reviewer picks from when rejecting a document (Settings → Reasons for not accepting a document). */
  rejectReasons: z
    .array(
      z
        .string({ error: 'A reason must be text' })
        .trim()
        .min(1, 'A reason cannot be empty')
        .max(MAX_REJECT_REASON_LENGTH, `A reason must be at most ${MAX_REJECT_REASON_LENGTH} characters`),
      { error: 'must be a list of reasons' },
    )
    .min(1, 'Keep at least one reason')
    .max(MAX_REJECT_REASONS, `At most ${MAX_REJECT_REASONS} reasons`)
    .refine((reasons) => new Set(reasons.map((reason) => reason.toLowerCase())).size === reasons.length, 'Each reason must be different'),
});
export type TSystemSettings = z.infer<typeof ZSystemSettings>;

/** The name of each setting, as the Settings screen and the activity log say it. */
export const SYSTEM_SETTING_LABELS: Record<keyof TSystemSettings, string> = {
  antivirusScanning: 'Antivirus scanning',
  documentReading: 'Read documents on this machine (OCR)',
  realtimeUpdates: 'Real-time updates',
  sessionTimeoutMinutes: 'Session timeout',
  signInMode: 'Sign-in',
  requireTwoFactorForAdmins: 'Two-step sign-in for admins',
  emailNotifications: 'E-mail notifications',
  slackNotifications: 'Slack notifications',
  teamsNotifications: 'Microsoft Teams notifications',
  uploadLinkDays: 'Upload links work for',
  rejectReasons: 'Reasons for not accepting a document',
};

export const SYSTEM_SETTINGS_DEFAULTS: TSystemSettings = {
  antivirusScanning: true,
  documentReading: true,
  realtimeUpdates: true,
  sessionTimeoutMinutes: SESSION_TIMEOUT_MINUTES.default,
  signInMode: 'shared',
  requireTwoFactorForAdmins: false,
  emailNotifications: true,
  slackNotifications: false,
  teamsNotifications: false,
  uploadLinkDays: UPLOAD_LINK_DAYS.default,
  rejectReasons: [...DEFAULT_REJECT_REASONS],
};

/** PATCH /api/settings: any of the fields, at least one; unknown fields are refused. */
export const ZSystemSettingsPatch = ZSystemSettings.partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { error: 'Change at least one setting.' });
export type TSystemSettingsPatch = z.infer<typeof ZSystemSettingsPatch>;

/** Health message of the antivirus service while scanning is turned off here (files are stored unscanned). */
export const SCANNING_OFF_MESSAGE = 'virus scanning is turned off in Settings';
/** Why /ws is refused (and open connections are closed) while real-time updates are turned off. */
export const REALTIME_OFF_MESSAGE = 'Real-time updates are turned off in Settings.';
/** Close code of a live connection ended because real-time updates were turned off: the client stops reconnecting. */
export const LIVE_TURNED_OFF_CLOSE_CODE = 4403;

export const STORAGE_DRIVERS = ['local', 's3'] as const;
export const ZStorageDriver = z.enum(STORAGE_DRIVERS);

/**
 * GET /api/settings/installation: how this installation is set up, for the Settings Storage card and the
 * App Workflow screen. Never holds a credential: storage is a folder or `s3://bucket`, clamd an address.
 */
export const ZInstallation = z.object({
  storage: z.object({
    driver: ZStorageDriver,
    /** The data folder of local storage, or `s3://bucket`; null for a person whose role may not manage settings. */
    location: z.string().nullable(),
    /**
     * Documents with a stored object, and their bytes, per driver they were stored with (from the documents
     * table); for a person limited to some divisions, their divisions' documents only.
     */
    usage: z.array(z.object({ driver: ZStorageDriver, documents: z.number().int().nonnegative(), bytes: z.number().nonnegative() })),
  }),
  antivirus: z.object({
    scanningOn: z.boolean(),
    clamdConfigured: z.boolean(),
    /** `tcp://host:port` or `unix:/path`; null when CLAMD_URL is not set, and for a person whose role may not manage settings. */
    clamdLocation: z.string().nullable(),
  }),
  retentionYears: z.number().int().positive(),
  maxFileBytes: z.number().int().positive(),
  acceptedFileTypes: z.array(z.object({ label: z.string(), mime: z.string(), extensions: z.array(z.string()) })),
  formWebhookConfigured: z.boolean(),
  mailbox: z.object({ configured: z.boolean(), intervalMs: z.number().int().positive().nullable() }),
  playerId: z.object({ prefix: z.string(), format: z.string() }),
  storedPath: z.object({ format: z.string() }),
  /** A sample player run through the server's own id and path functions. */
  example: z.object({
    firstName: z.string(),
    lastName: z.string(),
    birthDate: z.string(),
    division: z.string(),
    seasonYear: z.number().int(),
    docType: z.string(),
    submissionId: z.string(),
    fileSha256: z.string(),
    extension: z.string(),
    playerId: z.string(),
    storedName: z.string(),
    storedPath: z.string(),
  }),
});
export type TInstallation = z.infer<typeof ZInstallation>;
