import type { Actor } from '../audit';
import { createHash } from 'node:crypto';
import { sharedReads } from '../platform/shared-reads';
import {
  LIVE_TURNED_OFF_CLOSE_CODE,
  principalCan,
  REALTIME_OFF_MESSAGE,
  type TDivision,
  type TDocType,
  type TInstallation,
  type TPrincipal,
  type TSystemSettings,
  type TSystemSettingsPatch,
} from '../../contract';
import type { Db } from '../platform/db/client';
import { sumStoredDocuments } from './storage-usage.repository';
import type { LiveHub } from '../live';
import { ACCEPTED_FILE_TYPES, buildStoredPath, sanitizeStoredName, STORED_PATH_FORMAT } from '../files';
import { readSystemSettings, updateSystemSettings, type SystemSettingsCache } from './system-settings';
import { derivePlayerId } from '../players';
import { AppError } from '../platform/errors';

/** What the environment decided at boot, for the Storage card and the App Workflow screen. */
export type InstallationFacts = {
  storage: { driver: 'local' | 's3'; location: string };
  /** clamd's address; undefined when CLAMD_URL is not set. */
  clamdLocation: string | undefined;
  retentionYears: number;
  maxFileBytes: number;
  idPrefix: string;
  formWebhookConfigured: boolean;
  /** The mailbox in force (the environment's or the one saved in Settings → Integrations), asked when read. */
  mailbox: () => Promise<{ configured: boolean; intervalMs: number | null }>;
};

export type SettingsService = {
  /** The saved settings, read from the database (not the cache): what the Settings screen shows. */
  read(): Promise<TSystemSettings>;
  /** Saves and audits a change; this instance uses it at once, and ends its live connections when they were turned off. */
  update(patch: TSystemSettingsPatch, meta: Actor): Promise<TSystemSettings>;
  /**
   * What the environment decided, for the Settings and App Workflow screens. Where files are stored and the
   * antivirus daemon's address only for a principal who may manage settings; storage usage over the principal's divisions.
   */
  installation(principal: TPrincipal): Promise<TInstallation>;
  /** Whether /ws may be opened now (through the cache: asked on every connection). */
  realtimeOn(): Promise<boolean>;
  /** Ends this instance's live connections when another instance turned real-time updates off. */
  enforceRealtime(): Promise<void>;
};

/** The worked example of the App Workflow screen: a made-up player run through the real id and path functions. */
const SAMPLE = {
  firstName: 'Zoë',
  lastName: "O'Brien",
  birthDate: '2015-03-02',
  division: 'AA' satisfies TDivision,
  docType: 'medical' satisfies TDocType,
  submissionId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  fileContent: 'A sample medical form',
  extension: 'pdf',
} as const;

/** What the sign-in mode needs from personal accounts (the auth module, wired by main.ts). */
export type SignInAccounts = {
  /** Whether someone can sign in as an admin with a password of their own. */
  hasUsableAdmin(): Promise<boolean>;
  /** Ends every shared-password session on every instance. */
  endSharedSessions(actor: Actor): Promise<unknown>;
};

export const PERSONAL_ONLY_NEEDS_ADMIN_MESSAGE =
  'No admin can sign in with a personal account yet. Invite an admin and let them set a password first, then turn the shared password off.';

export function createSettingsService(deps: {
  db: Db;
  accounts: SignInAccounts;
  cache: SystemSettingsCache;
  /** The settings in force where nothing was saved (the contract's defaults, with the environment's session timeout). */
  defaults: TSystemSettings;
  hub: Pick<LiveHub, 'closeAll' | 'size'>;
  facts: InstallationFacts;
  now?: () => Date;
}): SettingsService {
  const now = deps.now ?? (() => new Date());
  const closeLiveConnections = () => deps.hub.closeAll(LIVE_TURNED_OFF_CLOSE_CODE, REALTIME_OFF_MESSAGE);

  // Every open dashboard asks for the settings: identical calls while one runs share its answer.
  const reads = sharedReads<'settings', TSystemSettings>();

  return {
    read() {
      return reads.read('settings', async () => {
        const settings = await readSystemSettings(deps.db, deps.defaults);
        deps.cache.remember(settings);
        return settings;
      });
    },

    async update(patch, meta) {
      const before = await readSystemSettings(deps.db, deps.defaults);
      const goesPersonal = patch.signInMode === 'personal' && before.signInMode !== 'personal';
      // Without an admin who can sign in as themselves, 'personal accounts only' would lock everyone out.
      if (goesPersonal && !(await deps.accounts.hasUsableAdmin())) {
        throw new AppError('CONFLICT', PERSONAL_ONLY_NEEDS_ADMIN_MESSAGE, [{ path: 'body.signInMode', message: PERSONAL_ONLY_NEEDS_ADMIN_MESSAGE }]);
      }
      const settings = await updateSystemSettings(deps.db, patch, meta.principal, { defaults: deps.defaults, requestId: meta.requestId });
      deps.cache.remember(settings);
      // After the commit: a socket closed for a change that then failed to save would be a lie.
      if (!settings.realtimeUpdates) closeLiveConnections();
      if (goesPersonal && settings.signInMode === 'personal') await deps.accounts.endSharedSessions(meta);
      return settings;
    },

    async installation(principal) {
      const [settings, usage] = await Promise.all([deps.cache.current(), sumStoredDocuments(deps.db, principal.divisions)]);
      const { facts } = deps;
      const manages = principalCan(principal, 'settings.manage');
      const seasonYear = now().getUTCFullYear();
      const fileSha256 = createHash('sha256').update(SAMPLE.fileContent).digest('hex');
      const playerId = derivePlayerId({
        prefix: facts.idPrefix,
        year: seasonYear,
        firstName: SAMPLE.firstName,
        lastName: SAMPLE.lastName,
        birthDate: SAMPLE.birthDate,
      });
      const storedName = sanitizeStoredName(SAMPLE.firstName, SAMPLE.lastName);
      const storedPath = buildStoredPath({
        year: seasonYear,
        division: SAMPLE.division,
        storedName,
        birthDate: SAMPLE.birthDate,
        playerId,
        docType: SAMPLE.docType,
        submissionId: SAMPLE.submissionId,
        fileSha256,
        extension: SAMPLE.extension,
      });
      return {
        storage: { driver: facts.storage.driver, location: manages ? facts.storage.location : null, usage },
        antivirus: {
          scanningOn: settings.antivirusScanning,
          clamdConfigured: facts.clamdLocation !== undefined,
          clamdLocation: manages ? (facts.clamdLocation ?? null) : null,
        },
        retentionYears: facts.retentionYears,
        maxFileBytes: facts.maxFileBytes,
        acceptedFileTypes: ACCEPTED_FILE_TYPES.map((type) => ({ ...type, extensions: [...type.extensions] })),
        formWebhookConfigured: facts.formWebhookConfigured,
        mailbox: await facts.mailbox(),
        playerId: { prefix: facts.idPrefix, format: `${facts.idPrefix}-{year}-{8 hex}` },
        storedPath: { format: STORED_PATH_FORMAT },
        example: {
          firstName: SAMPLE.firstName,
          lastName: SAMPLE.lastName,
          birthDate: SAMPLE.birthDate,
          division: SAMPLE.division,
          seasonYear,
          docType: SAMPLE.docType,
          submissionId: SAMPLE.submissionId,
          fileSha256,
          extension: SAMPLE.extension,
          playerId,
          storedName,
          storedPath,
        },
      };
    },

    async realtimeOn() {
      return (await deps.cache.current()).realtimeUpdates;
    },

    async enforceRealtime() {
      if (deps.hub.size === 0) return;
      if (!(await deps.cache.current()).realtimeUpdates) closeLiveConnections();
    },
  };
}
