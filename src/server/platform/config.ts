import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { embeddedPostgresUnavailable } from './db/embedded-postgres';

/**
 * The only reader of process.env. Parsed once at boot; a bad value stops the server with every bad
 * variable named, so an operator fixes them all in one go.
 *
 * Every variable is declared once, in VARIABLES: how its text is read (a zod schema, its default
 * included), what the README's configuration table says of it, and where its value goes in Config.
 * The env schema, the mapping into Config and CONFIG_DOCS are derived from that one table.
 */

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
    error: 'must be one of true, false, 1, 0, yes, no, on, off',
  })
  .transform((value) => ['true', '1', 'yes', 'on'].includes(value));

const integerFromEnv = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number between ${min} and ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be a whole number between ${min} and ${max}`);

/** Empty strings count as unset, as they do in most shells' `VAR= cmd`. */
const emptyAsUnset = (env: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** `pretty`: one readable line per event, for a person at a terminal; `json`: one JSON object per line. */
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** One environment variable, as VARIABLES declares it. */
type Variable = {
  /** Reads the variable's text (undefined when unset or empty) into its value; a default is part of it. */
  schema: z.ZodType;
  /** The default, in the words of the README's table. */
  default: string;
  /** What the variable does, in the words of the README's table. */
  meaning: string;
} & (
  | {
      /** The Config field that holds the value exactly as the schema reads it. */
      field: keyof Config;
      partOf?: never;
    }
  | {
      /** The Config field composedFields builds from this variable, with others or with the data directory. */
      partOf: keyof Config;
      field?: never;
    }
);

/** Every environment variable Clearbase reads, in the order of the README's table. */
const VARIABLES = {
  NODE_ENV: {
    schema: z.enum(['development', 'production', 'test']).default('development'),
    field: 'nodeEnv',
    default: 'development',
    meaning: 'development, production or test.',
  },
  HOST: {
    schema: z.string().min(1).default('localhost'),
    field: 'host',
    default: 'localhost',
    meaning: 'Address to listen on; `0.0.0.0` to accept other machines.',
  },
  PORT: {
    schema: integerFromEnv(0, 65_535).default(5000),
    field: 'port',
    default: '5000',
    meaning: 'HTTP port.',
  },
  CLEARBASE_PUBLIC_URL: {
    schema: z
      .url({ protocol: /^https?$/, error: 'must be the address staff open, such as https://docs.myleague.org' })
      .refine((value) => {
        const url = URL.parse(value);
        return url === null || (url.pathname === '/' && !url.search && !url.hash && !url.username);
      }, 'must be an origin only (scheme, name and port), such as https://docs.myleague.org')
      .transform((value) => new URL(value))
      .optional(),
    field: 'publicUrl',
    default: '(the listening address)',
    meaning:
      'The address staff open, such as `https://docs.myleague.org`. Only pages from it may change data or open the live connection, and requests naming another host are refused. Set it behind a proxy.',
  },
  CLEARBASE_DATA_DIR: {
    schema: z.string().min(1).default('./data'),
    partOf: 'dataDir',
    default: './data',
    meaning: 'Embedded database, local storage and master key live here.',
  },
  CLEARBASE_PASSWORD: {
    schema: z.string().min(8, 'must be at least 8 characters').max(1024).optional(),
    field: 'password',
    default: '(generated)',
    meaning: 'The shared system password. Unset: one is generated at first start, printed once, and only its hash is kept.',
  },
  DATABASE_URL: {
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// connection URL')
      .optional(),
    partOf: 'database',
    default: '(unset = the embedded database)',
    meaning: 'PostgreSQL connection URL of a server of your own; unset uses the embedded database (see `CLEARBASE_EMBEDDED_DATABASE`).',
  },
  CLEARBASE_EMBEDDED_DATABASE: {
    schema: z.enum(['pglite', 'postgres'], { message: "must be 'pglite' or 'postgres'" }).optional(),
    partOf: 'database',
    default: '(postgres where it can run, else pglite)',
    meaning:
      'The database used when `DATABASE_URL` is unset: `postgres` (PostgreSQL from the bundled binaries, a process of the server\'s own under `<data dir>/postgres`, reached by a socket only) or `pglite` (PostgreSQL in WebAssembly inside the server, under `<data dir>/db`). Unset: `postgres`, unless the data folder already holds a PGlite database or the binaries cannot run here (no build for this platform; as root, an account to run them as or a folder above the data folder it cannot pass).',
  },
  CLEARBASE_MASTER_KEY: {
    schema: z
      .string()
      .refine(
        (value) => decodeKey(value)?.length === 32,
        'must be 32 bytes written as 64 hex characters or base64 (openssl rand -base64 32)',
      )
      .transform(decodeKey)
      .optional(),
    field: 'masterKey',
    default: '(generated)',
    meaning: '32-byte key (hex or base64) that wraps every file key. Unset: read from or created at `<data dir>/master.key` (mode 0600).',
  },
  CLEARBASE_BACKUP_PASSPHRASE: {
    // Taken exactly as given (a space in it is part of it): the server and `npm run backup` must read the same one.
    schema: z
      .string()
      .refine((value) => value.trim().length >= 12, 'must be at least 12 characters')
      .refine((value) => value.length <= 1024, 'must be at most 1,024 characters')
      .optional(),
    field: 'backupPassphrase',
    default: '(unset: no backups made by the server)',
    meaning:
      'The passphrase the nightly backup (Settings → System → Backups) encrypts its archives with; `npm run backup` reads it too. Not the master key: keep the two apart, a restore needs both.',
  },
  CLEARBASE_DEMO: {
    schema: booleanFromEnv.optional(),
    partOf: 'demo',
    default: 'true with the embedded database, else false',
    meaning: 'Seed demo data into an empty database at start.',
  },
  CLEARBASE_ID_PREFIX: {
    schema: z
      .string()
      .regex(/^[A-Z][A-Z0-9]{0,7}$/, 'must be 1 to 8 capital letters or digits, starting with a letter')
      .default('CB'),
    field: 'idPrefix',
    default: 'CB',
    meaning: 'Player id prefix: `{prefix}-{year}-{8 hex}`.',
  },
  LOG_LEVEL: {
    schema: z.enum(LOG_LEVELS).default('info'),
    field: 'logLevel',
    default: 'info',
    meaning: 'fatal, error, warn, info, debug, trace or silent.',
  },
  LOG_FORMAT: {
    schema: z.enum(LOG_FORMATS).optional(),
    field: 'logFormat',
    default: 'pretty on a terminal, else json',
    meaning: '`pretty`: one readable line per event; `json`: one JSON object per line, for log collectors.',
  },
  TRUST_PROXY: {
    schema: booleanFromEnv.default(false),
    field: 'trustProxy',
    default: 'false',
    meaning: 'Behind a reverse proxy: trust X-Forwarded-* for client address and https (Secure cookie).',
  },
  CLEARBASE_LOGIN_RATE_LIMIT: {
    schema: integerFromEnv(1, 10_000).default(10),
    field: 'loginRateLimitPerMinute',
    default: '10',
    meaning: 'Login attempts allowed per client address per minute, in total over every instance on the database (counted there).',
  },
  CLEARBASE_SESSION_TIMEOUT_MINUTES: {
    // The range of the Settings field (SESSION_TIMEOUT_MINUTES in contract/settings.ts), which takes over once saved.
    schema: integerFromEnv(5, 24 * 60).default(60),
    field: 'sessionTimeoutMinutes',
    default: '60',
    meaning: 'A session ends after this many idle minutes (5 to 1440). A timeout saved in System Settings wins over this value.',
  },
  FORM_WEBHOOK_SECRET: {
    schema: z.string().min(16, 'must be at least 16 characters').optional(),
    field: 'formWebhookSecret',
    default: '(unset)',
    meaning: 'HMAC-SHA256 secret of the registration form webhook (at least 16 characters); wins over the one Settings → Integrations shows. Unset: a random one is made on first use.',
  },
  FORM_FILE_HOSTS: {
    schema: z
      .string()
      .regex(/^[a-z0-9.-]+(,[a-z0-9.-]+)*$/i, 'must be a comma-separated list of host names, e.g. files.example.org,cdn.forms.example')
      .transform((hosts) => hosts.toLowerCase().split(','))
      .default(() => []),
    field: 'formFileHosts',
    default: '(unset)',
    meaning: 'Comma-separated hosts the JSON form webhook may download files from (https only).',
  },
  FORM_FILE_ALLOW_HTTP_LOOPBACK: {
    schema: booleanFromEnv.default(false),
    field: 'formFileAllowHttpLoopback',
    default: 'false',
    meaning: 'Tests only: allow http file URLs on loopback addresses, and the host name localhost.',
  },
  FORM_WEBHOOK_BODY_TIMEOUT_MS: {
    schema: integerFromEnv(1_000, 3_600_000).default(60_000),
    field: 'formWebhookBodyTimeoutMs',
    default: '60000',
    meaning:
      'The whole body of a form webhook request must arrive within this time (1000 to 3600000); a slower one is answered 408 and nothing of it is kept.',
  },
  FORM_WEBHOOK_RATE_LIMIT: {
    schema: integerFromEnv(1, 100_000).default(120),
    field: 'formWebhookRateLimitPerMinute',
    default: '120',
    meaning: 'Form webhook requests allowed per client address per minute, counted by each instance; more are answered 429.',
  },
  MAX_FILE_BYTES: {
    schema: integerFromEnv(1, 1024 * 1024 * 1024).default(20 * 1024 * 1024),
    field: 'maxFileBytes',
    default: '20971520 (20 MB)',
    meaning: 'Largest accepted document.',
  },
  RETENTION_YEARS: {
    schema: integerFromEnv(1, 100).default(7),
    field: 'retentionYears',
    default: '7',
    meaning: 'Documents are deleted this many years after upload (a tombstone row stays).',
  },
  PIPELINE_WORKERS: {
    schema: integerFromEnv(1, 32).default(3),
    field: 'pipelineWorkers',
    default: '3',
    meaning: 'Documents processed at once by this instance.',
  },
  INTAKE_THREADS: {
    schema: integerFromEnv(1, 32).default(() => Math.min(4, availableParallelism())),
    field: 'intakeThreads',
    default: 'CPUs, at most 4',
    meaning: 'Most worker threads that parse, hash and encrypt uploaded forms: started by uploads, ended after 5 idle minutes.',
  },
  PIPELINE_STALE_AFTER_MS: {
    schema: integerFromEnv(1_000, 24 * 3_600_000).default(10 * 60_000),
    field: 'pipelineStaleAfterMs',
    default: '600000 (10 min)',
    meaning: 'A pipeline job claimed longer ago than this is presumed orphaned by a crashed instance and re-run.',
  },
  CLAMD_URL: {
    schema: z
      .string()
      .regex(/^(tcp:\/\/[^\s:/]+:\d{1,5}|unix:\/.+)$/, 'must be tcp://host:port or unix:/path/to/clamd.sock')
      .optional(),
    field: 'clamdUrl',
    default: '(unset = scanning off)',
    meaning: 'ClamAV daemon: `tcp://host:3310` or `unix:/run/clamav/clamd.ctl`.',
  },
  STORAGE_DRIVER: {
    schema: z.enum(['local', 's3']).default('local'),
    partOf: 'storage',
    default: 'local',
    meaning: '`local` (encrypted files under `<data dir>/storage`) or `s3`.',
  },
  S3_ENDPOINT: {
    schema: z.url({ error: 'must be a URL such as https://s3.eu-west-1.amazonaws.com' }).optional(),
    partOf: 'storage',
    default: '(AWS)',
    meaning: "S3-compatible endpoint URL, for the documents' bucket and for backups to `s3://`; unset uses AWS for the region.",
  },
  S3_BUCKET: {
    schema: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name').optional(),
    partOf: 'storage',
    default: '(unset)',
    meaning: 'Bucket for stored documents; required with `STORAGE_DRIVER=s3`.',
  },
  S3_REGION: {
    schema: z.string().min(1).default('us-east-1'),
    partOf: 'storage',
    default: 'us-east-1',
    meaning: 'S3 region.',
  },
  S3_ACCESS_KEY_ID: {
    schema: z.string().min(1).optional(),
    partOf: 'storage',
    default: '(unset)',
    meaning: 'S3 access key; unset uses the default AWS credential chain.',
  },
  S3_SECRET_ACCESS_KEY: {
    schema: z.string().min(1).optional(),
    partOf: 'storage',
    default: '(unset)',
    meaning: 'S3 secret key; set together with `S3_ACCESS_KEY_ID`.',
  },
  S3_FORCE_PATH_STYLE: {
    schema: booleanFromEnv.default(false),
    partOf: 'storage',
    default: 'false',
    meaning: 'Path-style bucket addressing (MinIO and most self-hosted S3).',
  },
  IMAP_HOST: {
    schema: z.string().regex(/^[a-z0-9.-]+$/i, 'must be a host name such as imap.gmail.com').optional(),
    partOf: 'imap',
    default: '(unset = the Settings mailbox)',
    meaning: 'Mail server of the monitored mailbox, e.g. imap.gmail.com; set, the IMAP_* variables win over the mailbox of Settings → Integrations.',
  },
  IMAP_PORT: {
    schema: integerFromEnv(1, 65_535).optional(),
    partOf: 'imap',
    default: '993 with TLS, else 143',
    meaning: 'IMAP port.',
  },
  IMAP_TLS: {
    schema: booleanFromEnv.default(true),
    partOf: 'imap',
    default: 'true',
    meaning: 'TLS from the start (993); false = plain, upgraded with STARTTLS when offered.',
  },
  IMAP_USER: {
    schema: z.string().min(1).optional(),
    partOf: 'imap',
    default: '(unset)',
    meaning: 'Mailbox user name (the full address for Gmail and Microsoft 365).',
  },
  IMAP_PASSWORD: {
    schema: z.string().min(1).optional(),
    partOf: 'imap',
    default: '(unset)',
    meaning: 'Mailbox password; for Gmail an app password.',
  },
  IMAP_OAUTH2_TOKEN: {
    schema: z.string().min(1).optional(),
    partOf: 'imap',
    default: '(unset)',
    meaning: 'OAuth2 access token (XOAUTH2) instead of a password.',
  },
  IMAP_MAILBOX: {
    schema: z.string().min(1).default('INBOX'),
    partOf: 'imap',
    default: 'INBOX',
    meaning: 'Folder parents send to.',
  },
  IMAP_PROCESSED_MAILBOX: {
    schema: z.string().min(1).optional(),
    partOf: 'imap',
    default: '(unset)',
    meaning: 'Folder handled mail is moved to; unset leaves it in place, marked read.',
  },
  IMAP_INTERVAL_MS: {
    schema: integerFromEnv(10_000, 24 * 3_600_000).default(300_000),
    partOf: 'imap',
    default: '300000',
    meaning: 'Time between scheduled mailbox checks (at least 10000).',
  },
  SMTP_URL: {
    schema: z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must be smtp://user:password@host:587 or smtps://user:password@host:465')
      .optional(),
    partOf: 'smtp',
    default: '(unset)',
    meaning:
      'Outgoing mail server for notifications, e.g. `smtp://user:password@smtp.example.org:587` (`smtps://` for TLS on 465). A server saved on the Notifications Settings tab wins.',
  },
  SMTP_FROM: {
    schema: z
      .string()
      .regex(/^([^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, "must be an address, or a name with one: 'League <registrations@example.org>'")
      .optional(),
    partOf: 'smtp',
    default: '(unset)',
    meaning: 'Sender of notification e-mails, e.g. `League <registrations@example.org>`; required with `SMTP_URL`.',
  },
  NOTIFICATION_TIMEOUT_MS: {
    schema: integerFromEnv(1_000, 300_000).default(15_000),
    field: 'notificationTimeoutMs',
    default: '15000',
    meaning: 'Time limit of each SMTP step and each Slack/Teams webhook call.',
  },
  WEBHOOK_ALLOW_HTTP_LOOPBACK: {
    schema: booleanFromEnv.default(false),
    field: 'webhookAllowHttpLoopback',
    default: 'false',
    meaning: 'Tests only: allow http Slack/Teams webhook addresses on 127.0.0.1.',
  },
} satisfies Record<string, Variable>;

type Variables = typeof VARIABLES;
type VariableName = keyof Variables;

/** Every environment variable Clearbase reads. */
export const CONFIG_VARIABLES = Object.keys(VARIABLES) as VariableName[];

/** The variables with their defaults and meaning: the README's configuration table, row for row. */
export const CONFIG_DOCS: ReadonlyArray<{ name: VariableName; default: string; meaning: string }> = CONFIG_VARIABLES.map((name) => ({
  name,
  default: VARIABLES[name].default,
  meaning: VARIABLES[name].meaning,
}));

/** Each variable's schema under its name (Object.fromEntries cannot say which schema is under which name). */
const envShape = Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, VARIABLES[name].schema])) as {
  [N in VariableName]: Variables[N]['schema'];
};
type Env = z.output<z.ZodObject<typeof envShape>>;

/** Rules that span variables; each issue is reported under the variable to change. */
function checkTogether(env: Env, ctx: z.RefinementCtx): void {
  if (env.SMTP_URL && !env.SMTP_FROM) ctx.addIssue({ code: 'custom', path: ['SMTP_FROM'], message: 'is required when SMTP_URL is set' });
  if (env.IMAP_HOST) {
    if (!env.IMAP_USER) ctx.addIssue({ code: 'custom', path: ['IMAP_USER'], message: 'is required when IMAP_HOST is set' });
    if (!env.IMAP_PASSWORD && !env.IMAP_OAUTH2_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['IMAP_PASSWORD'], message: 'IMAP_PASSWORD or IMAP_OAUTH2_TOKEN is required when IMAP_HOST is set' });
    }
  }
  if (env.IMAP_PASSWORD && env.IMAP_OAUTH2_TOKEN) {
    ctx.addIssue({ code: 'custom', path: ['IMAP_OAUTH2_TOKEN'], message: 'set IMAP_PASSWORD or IMAP_OAUTH2_TOKEN, not both' });
  }
  if (env.STORAGE_DRIVER === 's3' && !env.S3_BUCKET) {
    ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when STORAGE_DRIVER=s3' });
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({ code: 'custom', path: ['S3_SECRET_ACCESS_KEY'], message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together' });
  }
}

const ZEnv = z.object(envShape).superRefine(checkTogether);

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** The address staff use (CLEARBASE_PUBLIC_URL); undefined = the listening address. Names the own origin and hosts. */
  publicUrl: URL | undefined;
  dataDir: string;
  /** The shared system password from the environment; when absent one is generated at first start. */
  password: string | undefined;
  /** `because`: why PGlite runs when the embedded database was not chosen (the bundled PostgreSQL is the default). */
  database: { kind: 'pglite'; dir: string; because?: string } | { kind: 'postgres'; url: string } | { kind: 'embedded-postgres'; dir: string };
  /** 32-byte master key from the environment; when absent it is read from or created at `masterKeyFile`. */
  masterKey: Buffer | undefined;
  masterKeyFile: string;
  /** CLEARBASE_BACKUP_PASSPHRASE: the nightly backup's passphrase; undefined = the server makes no backups. */
  backupPassphrase: string | undefined;
  demo: boolean;
  idPrefix: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** How log lines are written; undefined = pretty when stdout is a terminal, JSON otherwise. */
  logFormat: LogFormat | undefined;
  trustProxy: boolean;
  loginRateLimitPerMinute: number;
  sessionTimeoutMinutes: number;
  storage: { driver: 'local'; dir: string } | ({ driver: 's3'; bucket: string } & S3Connection);
  /** How Clearbase reaches S3 (the S3_* variables but the bucket): for the documents' bucket and a backup's. */
  s3: S3Connection;
  formWebhookSecret: string | undefined;
  /** The monitored mailbox; undefined when IMAP_HOST is not set (mailbox intake off). */
  imap: ImapConfig | undefined;
  /** Hosts the JSON form webhook may download files from; empty = URL files are refused. */
  formFileHosts: string[];
  /** Test setting: lets file URLs use http to 127.0.0.1 (never in production). */
  formFileAllowHttpLoopback: boolean;
  /** The whole body of a form webhook request must arrive within this; past it the request is answered 408. */
  formWebhookBodyTimeoutMs: number;
  /** Form webhook requests allowed per client address per minute, on each instance. */
  formWebhookRateLimitPerMinute: number;
  maxFileBytes: number;
  retentionYears: number;
  pipelineWorkers: number;
  /** Worker threads that parse and seal multipart uploads (decision 011). */
  intakeThreads: number;
  /** A job claimed longer ago than this belongs to a dead worker and is re-queued. */
  pipelineStaleAfterMs: number;
  /** clamd address; unset = scanning off (shown as a health warning). */
  clamdUrl: string | undefined;
  /** Outgoing e-mail from the environment; a mail server saved on the Notifications Settings tab wins over it. */
  smtp: { url: string | undefined; from: string | undefined };
  /** Time limit of one SMTP step or one webhook call. */
  notificationTimeoutMs: number;
  /** Test setting: lets Slack/Teams webhook addresses use http to 127.0.0.1 (never in production). */
  webhookAllowHttpLoopback: boolean;
};

/** The monitored mailbox (IMAP_*). */
export type ImapConfig = {
  host: string;
  port: number;
  /** TLS from the first byte (993); false = plain, upgraded with STARTTLS when the server offers it. */
  tls: boolean;
  user: string;
  auth: { kind: 'password'; password: string } | { kind: 'oauth2'; accessToken: string };
  /** The folder parents' mail arrives in. */
  mailbox: string;
  /** Where handled mail is moved; null = it stays, marked read. */
  processedMailbox: string | null;
  intervalMs: number;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function decodeKey(value: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(value)) return Buffer.from(value, 'base64');
  return undefined;
}

/** The Config fields that variables declared with `field` fill, each with the type its schema reads. */
type DirectFields = {
  [N in VariableName as Variables[N] extends { field: infer F extends keyof Config } ? F : never]: Env[N];
};

/** The parsed variables declared `partOf` a field: the only ones composedFields may read. */
type ComposedEnv = Pick<Env, { [N in VariableName]: Variables[N] extends { partOf: keyof Config } ? N : never }[VariableName]>;

/** Each variable declared with `field`, its parsed value under that field. */
function directFields(env: Env): DirectFields {
  const fields: Partial<Record<keyof Config, unknown>> = {};
  for (const name of CONFIG_VARIABLES) {
    const { field }: Variable = VARIABLES[name];
    if (field !== undefined) fields[field] = env[name];
  }
  // The loop fills exactly the keys DirectFields names, each with the value of the schema it was typed from.
  return fields as DirectFields;
}

export type S3Connection = {
  region: string;
  endpoint: string | undefined;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
};

/** The fields built from several variables, or from the data directory the path is resolved in. */
function composedFields(
  e: ComposedEnv,
  cwd: string,
): Pick<Config, 'dataDir' | 'database' | 'masterKeyFile' | 'demo' | 'storage' | 's3' | 'imap' | 'smtp'> {
  const dataDir = path.resolve(cwd, e.CLEARBASE_DATA_DIR);
  const s3: S3Connection = {
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
  return {
    dataDir,
    database: e.DATABASE_URL ? { kind: 'postgres', url: e.DATABASE_URL } : embeddedDatabase(dataDir, e.CLEARBASE_EMBEDDED_DATABASE),
    masterKeyFile: path.join(dataDir, 'master.key'),
    // Demo data is on by default only for the embedded database: a real server starts empty.
    demo: e.CLEARBASE_DEMO ?? !e.DATABASE_URL,
    storage:
      e.STORAGE_DRIVER === 's3' && e.S3_BUCKET ? { driver: 's3', bucket: e.S3_BUCKET, ...s3 } : { driver: 'local', dir: path.join(dataDir, 'storage') },
    s3,
    smtp: { url: e.SMTP_URL, from: e.SMTP_FROM },
    imap:
      e.IMAP_HOST && e.IMAP_USER && (e.IMAP_PASSWORD || e.IMAP_OAUTH2_TOKEN)
        ? {
            host: e.IMAP_HOST,
            port: e.IMAP_PORT ?? (e.IMAP_TLS ? 993 : 143),
            tls: e.IMAP_TLS,
            user: e.IMAP_USER,
            auth: e.IMAP_OAUTH2_TOKEN ? { kind: 'oauth2', accessToken: e.IMAP_OAUTH2_TOKEN } : { kind: 'password', password: e.IMAP_PASSWORD ?? '' },
            mailbox: e.IMAP_MAILBOX,
            processedMailbox: e.IMAP_PROCESSED_MAILBOX ?? null,
            intervalMs: e.IMAP_INTERVAL_MS,
          }
        : undefined,
  };
}

/**
 * The embedded database for a data folder: the one chosen, or by default the bundled PostgreSQL, except
 * where the folder already holds a PGlite database (it is kept) or PostgreSQL cannot run here; `because`
 * says why PGlite was taken when it was not chosen.
 */
function embeddedDatabase(dataDir: string, chosen: 'pglite' | 'postgres' | undefined): Config['database'] {
  const pglite = { kind: 'pglite', dir: path.join(dataDir, 'db') } as const;
  const postgres = { kind: 'embedded-postgres', dir: path.join(dataDir, 'postgres') } as const;
  if (chosen === 'pglite') return pglite;
  if (chosen === 'postgres') return postgres;
  if (existsSync(path.join(pglite.dir, 'PG_VERSION')) && !existsSync(path.join(postgres.dir, 'PG_VERSION'))) {
    return { ...pglite, because: 'the data folder holds a PGlite database' };
  }
  const unavailable = embeddedPostgresUnavailable(dataDir);
  return unavailable ? { ...pglite, because: unavailable } : postgres;
}

export function loadConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Config {
  const parsed = ZEnv.safeParse(emptyAsUnset(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  return { ...directFields(parsed.data), ...composedFields(parsed.data, cwd) };
}
