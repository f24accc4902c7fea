import { z } from 'zod';
import {
  MAILBOX_SETTING_VARIABLES,
  ZMailboxSecurity,
  type TMailboxSecurity,
  type TMailboxSettings,
  type TMailboxSettingsInput,
  type TMailboxTestInput,
  type TMailboxTestResult,
} from '../../../contract';
import { recordAuditEvent, type Actor } from '../../audit';
import type { ImapSettings, MailboxClient } from '../../adapters/mailbox/port';
import type { ImapConfig } from '../../platform/config';
import { openSecret, sealSecret, ZSealedSecret } from '../../platform/crypto/secret-box';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { getSetting, putSetting } from '../../settings';

/** The settings row of the mailbox saved on Settings → Integrations; its password sealed with the master key. */
const SETTING_KEY = 'integration.mailbox';
const ZStoredMailbox = z.object({
  host: z.string(),
  port: z.number().int(),
  security: ZMailboxSecurity,
  user: z.string(),
  password: ZSealedSecret,
  folder: z.string(),
});
type StoredMailbox = z.infer<typeof ZStoredMailbox>;

const readStored = (db: Db) => getSetting(db, SETTING_KEY, ZStoredMailbox);

export type MailboxSettingsDeps = {
  db: Db;
  masterKey: Buffer;
  /** The mailbox of the IMAP_* variables: set, it is the mailbox, whatever is saved (decision 026). */
  environment: ImapConfig | undefined;
  /** Makes the client of a mailbox (the IMAP adapter); called again only when the settings change. */
  createClient: (settings: ImapSettings) => MailboxClient;
  /** Signs in with these settings and counts the folder's e-mails (the IMAP adapter's test). */
  testConnection: (settings: ImapSettings) => Promise<TMailboxTestResult>;
};

export type MailboxSettingsService = {
  /** The mailbox in force, read from the database each time (every instance sees a save at once); undefined when none is set up. */
  client(): Promise<MailboxClient | undefined>;
  /** What the screen shows: the values in force and where they come from, never the password. */
  describe(): Promise<TMailboxSettings>;
  /** Saves the mailbox (the password sealed; left out, the saved one is kept), audited. Refused while IMAP_HOST is set. */
  save(input: TMailboxSettingsInput, actor: Actor): Promise<TMailboxSettings>;
  /** Connects with the values given, the saved ones filling what is left out (the environment's when it wins). */
  test(input: TMailboxTestInput): Promise<TMailboxTestResult>;
};

const securityOf = (settings: { tls: boolean; startTls?: boolean }): TMailboxSecurity =>
  settings.tls ? 'tls' : settings.startTls === false ? 'none' : 'starttls';
const connectionOf = (security: TMailboxSecurity): Pick<ImapSettings, 'tls' | 'startTls'> =>
  security === 'tls' ? { tls: true } : { tls: false, startTls: security === 'starttls' };

/** The saved password goes only where it was saved for: the same server, port, user and security. */
type Account = { host: string; port: number; user: string; security: TMailboxSecurity };
const sameAccount = (a: Account, b: Account): boolean =>
  a.host.toLowerCase() === b.host.toLowerCase() && a.port === b.port && a.user === b.user && a.security === b.security;
const PASSWORD_AGAIN = 'Enter the password again: the saved one is used only with the server, port, user name and security it was saved with.';

/**
 * The mailbox of Settings → Integrations, or of the IMAP_* variables where IMAP_HOST is set (then the screen
 * shows those values, names their variables and cannot change them).
 */
export function createMailboxSettings(deps: MailboxSettingsDeps): MailboxSettingsService {
  const { db, masterKey, environment } = deps;
  // The client of the settings last read, kept while they stay the same (same sealed password included).
  let cached: { fingerprint: string; client: MailboxClient } | undefined;
  const environmentClient = environment ? deps.createClient(environment) : undefined;

  const settingsOf = async (stored: StoredMailbox): Promise<ImapSettings> => ({
    host: stored.host,
    port: stored.port,
    ...connectionOf(stored.security),
    user: stored.user,
    auth: { kind: 'password', password: await openSecret(masterKey, stored.password) },
    mailbox: stored.folder,
    processedMailbox: null,
  });

  const describeStored = (stored: StoredMailbox | undefined): TMailboxSettings =>
    stored
      ? { source: 'settings', host: stored.host, port: stored.port, security: stored.security, user: stored.user, passwordSet: true, folder: stored.folder, variables: null }
      : { source: 'none', host: null, port: null, security: null, user: null, passwordSet: false, folder: null, variables: null };

  return {
    async client() {
      if (environmentClient) return environmentClient;
      const stored = await readStored(db);
      if (!stored) return undefined;
      const fingerprint = JSON.stringify(stored);
      if (cached?.fingerprint !== fingerprint) cached = { fingerprint, client: deps.createClient(await settingsOf(stored)) };
      return cached.client;
    },

    async describe() {
      if (environment) {
        return {
          source: 'environment',
          host: environment.host,
          port: environment.port,
          security: securityOf(environment),
          user: environment.user,
          passwordSet: true,
          folder: environment.mailbox,
          variables: { ...MAILBOX_SETTING_VARIABLES, password: environment.auth.kind === 'oauth2' ? 'IMAP_OAUTH2_TOKEN' : 'IMAP_PASSWORD' },
        };
      }
      return describeStored(await readStored(db));
    },

    async save(input, actor) {
      if (environment) {
        throw new AppError('CONFLICT', 'The mailbox is set on the server by the IMAP_* variables (IMAP_HOST and others); change it there.');
      }
      const saved = await db.transaction(async (tx) => {
        const before = await readStored(tx);
        if (input.password === undefined && !before) throw new AppError('VALIDATION_FAILED', 'Enter the password', [{ path: 'body.password', message: 'Enter the password' }]);
        if (input.password === undefined && before && !sameAccount(input, before)) {
          throw new AppError('VALIDATION_FAILED', PASSWORD_AGAIN, [{ path: 'body.password', message: PASSWORD_AGAIN }]);
        }
        const next: StoredMailbox = {
          host: input.host,
          port: input.port,
          security: input.security,
          user: input.user,
          folder: input.folder,
          password: input.password === undefined && before ? before.password : sealSecret(masterKey, input.password ?? ''),
        };
        await putSetting(tx, SETTING_KEY, next);
        // Which fields changed, by name: never the password, not even a part of it.
        const changed = (['host', 'port', 'security', 'user', 'folder'] as const).filter((field) => before?.[field] !== next[field]);
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'integration.mailbox_updated',
          subjectType: 'settings',
          subjectId: SETTING_KEY,
          detail: { changed, password: input.password === undefined ? 'kept' : before ? 'replaced' : 'set' },
          requestId: actor.requestId,
        });
        return next;
      });
      return describeStored(saved);
    },

    async test(input) {
      if (environment) return deps.testConnection(environment);
      const stored = await readStored(db);
      const base = stored ? await settingsOf(stored) : undefined;
      const host = input.host ?? base?.host;
      const user = input.user ?? base?.user;
      const security = input.security ?? (base ? securityOf(base) : undefined);
      if (host === undefined || user === undefined || security === undefined) {
        throw new AppError('VALIDATION_FAILED', 'Fill in the server, the security, the user name and the password first.');
      }
      const port = input.port ?? base?.port ?? (security === 'tls' ? 993 : 143);
      let password = input.password;
      if (password === undefined && stored && base?.auth.kind === 'password') {
        if (!sameAccount({ host, port, user, security }, stored)) throw new AppError('VALIDATION_FAILED', PASSWORD_AGAIN);
        password = base.auth.password;
      }
      if (password === undefined) throw new AppError('VALIDATION_FAILED', 'Fill in the server, the security, the user name and the password first.');
      return deps.testConnection({
        host,
        port,
        ...connectionOf(security),
        user,
        auth: { kind: 'password', password },
        mailbox: input.folder ?? base?.mailbox ?? 'INBOX',
        processedMailbox: null,
        timeoutMs: 15_000,
      });
    },
  };
}
