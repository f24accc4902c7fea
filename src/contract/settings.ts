import { z } from 'zod';

/**
 * System Settings (spec §2 'System Settings', issue 7): the switches and fields staff change at run time.
 * Stored in the `settings` table under one key; values never set read as the defaults below.
 * File encryption and audit logging are not settings: they are always on (the screen shows them locked).
 */
export const SESSION_TIMEOUT_MINUTES = { min: 5, max: 24 * 60, default: 60 } as const;

export const ZSystemSettings = z.object({
  /** Off: the pipeline stores files without a clamd scan, and health shows antivirus as a warning. */
  antivirusScanning: z.boolean(),
  /** Off: the live connection (/ws) is refused and screens fall back to their polling intervals. */
  realtimeUpdates: z.boolean(),
  /** Idle minutes after which the server ends a session. */
  sessionTimeoutMinutes: z
    .number({ error: 'must be a whole number of minutes' })
    .int('must be a whole number of minutes')
    .min(SESSION_TIMEOUT_MINUTES.min, `must be at least ${SESSION_TIMEOUT_MINUTES.min} minutes`)
    .max(SESSION_TIMEOUT_MINUTES.max, `must be at most ${SESSION_TIMEOUT_MINUTES.max} minutes (24 hours)`),
  /** Gates every e-mail notification. */
  emailNotifications: z.boolean(),
  /** Gates messages to the Slack incoming webhook. */
  slackNotifications: z.boolean(),
  /** Gates messages to the Microsoft Teams incoming webhook. */
  teamsNotifications: z.boolean(),
});
export type TSystemSettings = z.infer<typeof ZSystemSettings>;

export const SYSTEM_SETTINGS_DEFAULTS: TSystemSettings = {
  antivirusScanning: true,
  realtimeUpdates: true,
  sessionTimeoutMinutes: SESSION_TIMEOUT_MINUTES.default,
  emailNotifications: true,
  slackNotifications: false,
  teamsNotifications: false,
};

/** PATCH /api/settings: any of the fields, at least one; unknown fields are refused. */
export const ZSystemSettingsPatch = ZSystemSettings.partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { error: 'Change at least one setting.' });
export type TSystemSettingsPatch = z.infer<typeof ZSystemSettingsPatch>;
