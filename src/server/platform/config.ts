import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * The only reader of process.env. Parsed once at boot; a bad value stops the server with every bad
 * variable named, so an operator fixes them all in one go.
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

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('localhost'),
  PORT: integerFromEnv(0, 65_535).default(5000),
  CLEARBASE_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be the address staff open, such as https://docs.myleague.org' })
    .refine((value) => {
      const url = URL.parse(value);
      return url === null || (url.pathname === '/' && !url.search && !url.hash && !url.username);
    }, 'must be an origin only (scheme, name and port), such as https://docs.myleague.org')
    .optional(),
  CLEARBASE_DATA_DIR: z.string().min(1).default('./data'),
  CLEARBASE_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(1024).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// connection URL')
    .optional(),
  CLEARBASE_MASTER_KEY: z
    .string()
    .refine(
      (value) => decodeKey(value)?.length === 32,
      'must be 32 bytes written as 64 hex characters or base64 (openssl rand -base64 32)',
    )
    .optional(),
  CLEARBASE_DEMO: booleanFromEnv.optional(),
  CLEARBASE_ID_PREFIX: z
    .string()
    .regex(/^[A-Z][A-Z0-9]{0,7}$/, 'must be 1 to 8 capital letters or digits, starting with a letter')
    .default('CB'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: booleanFromEnv.default(false),
  CLEARBASE_LOGIN_RATE_LIMIT: integerFromEnv(1, 10_000).default(10),
  // The range of the Settings field (SESSION_TIMEOUT_MINUTES in contract/settings.ts), which takes over once saved.
  CLEARBASE_SESSION_TIMEOUT_MINUTES: integerFromEnv(5, 24 * 60).default(60),
  FORM_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  FORM_FILE_HOSTS: z
    .string()
    .regex(/^[a-z0-9.-]+(,[a-z0-9.-]+)*$/i, 'must be a comma-separated list of host names, e.g. files.example.org,cdn.forms.example')
    .optional(),
  FORM_FILE_ALLOW_HTTP_LOOPBACK: booleanFromEnv.default(false),
  FORM_WEBHOOK_BODY_TIMEOUT_MS: integerFromEnv(1_000, 3_600_000).default(60_000),
  FORM_WEBHOOK_RATE_LIMIT: integerFromEnv(1, 100_000).default(120),
  MAX_FILE_BYTES: integerFromEnv(1, 1024 * 1024 * 1024).default(20 * 1024 * 1024),
  RETENTION_YEARS: integerFromEnv(1, 100).default(7),
  PIPELINE_WORKERS: integerFromEnv(1, 32).default(3),
  INTAKE_THREADS: integerFromEnv(1, 32).optional(),
  PIPELINE_STALE_AFTER_MS: integerFromEnv(1_000, 24 * 3_600_000).default(10 * 60_000),
  CLAMD_URL: z
    .string()
    .regex(/^(tcp:\/\/[^\s:/]+:\d{1,5}|unix:\/.+)$/, 'must be tcp://host:port or unix:/path/to/clamd.sock')
    .optional(),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url({ error: 'must be a URL such as https://s3.eu-west-1.amazonaws.com' }).optional(),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name').optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
  IMAP_HOST: z.string().regex(/^[a-z0-9.-]+$/i, 'must be a host name such as imap.gmail.com').optional(),
  IMAP_PORT: integerFromEnv(1, 65_535).optional(),
  IMAP_TLS: booleanFromEnv.default(true),
  IMAP_USER: z.string().min(1).optional(),
  IMAP_PASSWORD: z.string().min(1).optional(),
  IMAP_OAUTH2_TOKEN: z.string().min(1).optional(),
  IMAP_MAILBOX: z.string().min(1).default('INBOX'),
  IMAP_PROCESSED_MAILBOX: z.string().min(1).optional(),
  IMAP_INTERVAL_MS: integerFromEnv(10_000, 24 * 3_600_000).default(300_000),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be smtp://user:password@host:587 or smtps://user:password@host:465')
    .optional(),
  SMTP_FROM: z
    .string()
    .regex(/^([^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, "must be an address, or a name with one: 'League <registrations@example.org>'")
    .optional(),
  NOTIFICATION_TIMEOUT_MS: integerFromEnv(1_000, 300_000).default(15_000),
  WEBHOOK_ALLOW_HTTP_LOOPBACK: booleanFromEnv.default(false),
}).superRefine((env, ctx) => {
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
});

/** Every environment variable Clearbase reads. */
export const CONFIG_VARIABLES = Object.keys(ZEnv.shape) as Array<keyof z.input<typeof ZEnv>>;

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** The address staff use (CLEARBASE_PUBLIC_URL); undefined = the listening address. Names the own origin and hosts. */
  publicUrl: URL | undefined;
  dataDir: string;
  /** The shared system password from the environment; when absent one is generated at first start. */
  password: string | undefined;
  database: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string };
  /** 32-byte master key from the environment; when absent it is read from or created at `masterKeyFile`. */
  masterKey: Buffer | undefined;
  masterKeyFile: string;
  demo: boolean;
  idPrefix: string;
  logLevel: z.infer<typeof ZEnv>['LOG_LEVEL'];
  trustProxy: boolean;
  loginRateLimitPerMinute: number;
  sessionTimeoutMinutes: number;
  storage:
    | { driver: 'local'; dir: string }
    | {
        driver: 's3';
        bucket: string;
        region: string;
        endpoint: string | undefined;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      };
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

export function loadConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Config {
  const parsed = ZEnv.safeParse(emptyAsUnset(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const dataDir = path.resolve(cwd, e.CLEARBASE_DATA_DIR);
  return {
    nodeEnv: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.CLEARBASE_PUBLIC_URL ? new URL(e.CLEARBASE_PUBLIC_URL) : undefined,
    dataDir,
    password: e.CLEARBASE_PASSWORD,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dir: path.join(dataDir, 'db') },
    masterKey: e.CLEARBASE_MASTER_KEY ? decodeKey(e.CLEARBASE_MASTER_KEY) : undefined,
    masterKeyFile: path.join(dataDir, 'master.key'),
    // Demo data is on by default only for the embedded database: a real server starts empty.
    demo: e.CLEARBASE_DEMO ?? !e.DATABASE_URL,
    idPrefix: e.CLEARBASE_ID_PREFIX,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    loginRateLimitPerMinute: e.CLEARBASE_LOGIN_RATE_LIMIT,
    sessionTimeoutMinutes: e.CLEARBASE_SESSION_TIMEOUT_MINUTES,
    storage:
      e.STORAGE_DRIVER === 's3' && e.S3_BUCKET
        ? {
            driver: 's3',
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : { driver: 'local', dir: path.join(dataDir, 'storage') },
    formWebhookSecret: e.FORM_WEBHOOK_SECRET,
    formFileHosts: e.FORM_FILE_HOSTS ? e.FORM_FILE_HOSTS.toLowerCase().split(',') : [],
    formFileAllowHttpLoopback: e.FORM_FILE_ALLOW_HTTP_LOOPBACK,
    formWebhookBodyTimeoutMs: e.FORM_WEBHOOK_BODY_TIMEOUT_MS,
    formWebhookRateLimitPerMinute: e.FORM_WEBHOOK_RATE_LIMIT,
    maxFileBytes: e.MAX_FILE_BYTES,
    retentionYears: e.RETENTION_YEARS,
    pipelineWorkers: e.PIPELINE_WORKERS,
    intakeThreads: e.INTAKE_THREADS ?? Math.min(4, availableParallelism()),
    pipelineStaleAfterMs: e.PIPELINE_STALE_AFTER_MS,
    clamdUrl: e.CLAMD_URL,
    smtp: { url: e.SMTP_URL, from: e.SMTP_FROM },
    notificationTimeoutMs: e.NOTIFICATION_TIMEOUT_MS,
    webhookAllowHttpLoopback: e.WEBHOOK_ALLOW_HTTP_LOOPBACK,
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

/**
 * The variables above, with their defaults and meaning, for the README's table and `--help`.
 * Kept beside the schema so the two are changed together.
 */
export const CONFIG_DOCS: ReadonlyArray<{ name: keyof z.input<typeof ZEnv>; default: string; meaning: string }> = [
  { name: 'PORT', default: '5000', meaning: 'HTTP port.' },
  { name: 'HOST', default: 'localhost', meaning: 'Address to listen on; `0.0.0.0` to accept other machines.' },
  {
    name: 'CLEARBASE_PUBLIC_URL',
    default: '(the listening address)',
    meaning:
      'The address staff open, such as `https://docs.myleague.org`. Only pages from it may change data or open the live connection, and requests naming another host are refused. Set it behind a proxy.',
  },
  { name: 'CLEARBASE_DATA_DIR', default: './data', meaning: 'Embedded database, local storage and master key live here.' },
  {
    name: 'CLEARBASE_PASSWORD',
    default: '(generated)',
    meaning: 'The shared system password. Unset: one is generated at first start, printed once, and only its hash is kept.',
  },
  { name: 'DATABASE_URL', default: '(unset = PGlite)', meaning: 'PostgreSQL connection URL; unset uses embedded PGlite under `<data dir>/db`.' },
  {
    name: 'CLEARBASE_MASTER_KEY',
    default: '(generated)',
    meaning: '32-byte key (hex or base64) that wraps every file key. Unset: read from or created at `<data dir>/master.key` (mode 0600).',
  },
  { name: 'CLEARBASE_DEMO', default: 'true with PGlite, else false', meaning: 'Seed demo data into an empty database at start.' },
  { name: 'CLEARBASE_ID_PREFIX', default: 'CB', meaning: 'Player id prefix: `{prefix}-{year}-{8 hex}`.' },
  { name: 'LOG_LEVEL', default: 'info', meaning: 'fatal, error, warn, info, debug, trace or silent.' },
  { name: 'TRUST_PROXY', default: 'false', meaning: 'Behind a reverse proxy: trust X-Forwarded-* for client address and https (Secure cookie).' },
  {
    name: 'CLEARBASE_LOGIN_RATE_LIMIT',
    default: '10',
    meaning: 'Login attempts allowed per client address per minute, in total over every instance on the database (counted there).',
  },
  {
    name: 'CLEARBASE_SESSION_TIMEOUT_MINUTES',
    default: '60',
    meaning: 'A session ends after this many idle minutes (5 to 1440). A timeout saved in System Settings wins over this value.',
  },
  { name: 'FORM_WEBHOOK_SECRET', default: '(unset)', meaning: 'HMAC-SHA256 secret of the registration form webhook (at least 16 characters).' },
  { name: 'FORM_FILE_HOSTS', default: '(unset)', meaning: 'Comma-separated hosts the JSON form webhook may download files from (https only).' },
  { name: 'FORM_FILE_ALLOW_HTTP_LOOPBACK', default: 'false', meaning: 'Tests only: allow http file URLs on 127.0.0.1.' },
  {
    name: 'FORM_WEBHOOK_BODY_TIMEOUT_MS',
    default: '60000',
    meaning: 'The whole body of a form webhook request must arrive within this time (1000 to 3600000); a slower one is answered 408 and nothing of it is kept.',
  },
  {
    name: 'FORM_WEBHOOK_RATE_LIMIT',
    default: '120',
    meaning: 'Form webhook requests allowed per client address per minute, counted by each instance; more are answered 429.',
  },
  { name: 'MAX_FILE_BYTES', default: '20971520 (20 MB)', meaning: 'Largest accepted document.' },
  { name: 'RETENTION_YEARS', default: '7', meaning: 'Documents are deleted this many years after upload (a tombstone row stays).' },
  { name: 'PIPELINE_WORKERS', default: '3', meaning: 'Documents processed at once by this instance.' },
  { name: 'INTAKE_THREADS', default: 'CPUs, at most 4', meaning: 'Worker threads that parse, hash and encrypt uploaded forms.' },
  {
    name: 'PIPELINE_STALE_AFTER_MS',
    default: '600000 (10 min)',
    meaning: 'A pipeline job claimed longer ago than this is presumed orphaned by a crashed instance and re-run.',
  },
  { name: 'CLAMD_URL', default: '(unset = scanning off)', meaning: 'ClamAV daemon: `tcp://host:3310` or `unix:/run/clamav/clamd.ctl`.' },
  { name: 'STORAGE_DRIVER', default: 'local', meaning: '`local` (encrypted files under `<data dir>/storage`) or `s3`.' },
  { name: 'S3_ENDPOINT', default: '(AWS)', meaning: 'S3-compatible endpoint URL; unset uses AWS for the region.' },
  { name: 'S3_BUCKET', default: '(unset)', meaning: 'Bucket for stored documents; required with `STORAGE_DRIVER=s3`.' },
  { name: 'S3_REGION', default: 'us-east-1', meaning: 'S3 region.' },
  { name: 'S3_ACCESS_KEY_ID', default: '(unset)', meaning: 'S3 access key; unset uses the default AWS credential chain.' },
  { name: 'S3_SECRET_ACCESS_KEY', default: '(unset)', meaning: 'S3 secret key; set together with `S3_ACCESS_KEY_ID`.' },
  { name: 'S3_FORCE_PATH_STYLE', default: 'false', meaning: 'Path-style bucket addressing (MinIO and most self-hosted S3).' },
  { name: 'NODE_ENV', default: 'development', meaning: 'development, production or test.' },
  { name: 'IMAP_HOST', default: '(unset = off)', meaning: 'Mail server of the monitored mailbox, e.g. imap.gmail.com; unset turns mailbox intake off.' },
  { name: 'IMAP_PORT', default: '993 with TLS, else 143', meaning: 'IMAP port.' },
  { name: 'IMAP_TLS', default: 'true', meaning: 'TLS from the start (993); false = plain, upgraded with STARTTLS when offered.' },
  { name: 'IMAP_USER', default: '(unset)', meaning: 'Mailbox user name (the full address for Gmail and Microsoft 365).' },
  { name: 'IMAP_PASSWORD', default: '(unset)', meaning: 'Mailbox password; for Gmail an app password.' },
  { name: 'IMAP_OAUTH2_TOKEN', default: '(unset)', meaning: 'OAuth2 access token (XOAUTH2) instead of a password.' },
  { name: 'IMAP_MAILBOX', default: 'INBOX', meaning: 'Folder parents send to.' },
  { name: 'IMAP_PROCESSED_MAILBOX', default: '(unset)', meaning: 'Folder handled mail is moved to; unset leaves it in place, marked read.' },
  { name: 'IMAP_INTERVAL_MS', default: '300000', meaning: 'Time between scheduled mailbox checks (at least 10000).' },
  {
    name: 'SMTP_URL',
    default: '(unset)',
    meaning: 'Outgoing mail server for notifications, e.g. `smtp://user:password@smtp.example.org:587` (`smtps://` for TLS on 465). A server saved on the Notifications Settings tab wins.',
  },
  { name: 'SMTP_FROM', default: '(unset)', meaning: "Sender of notification e-mails, e.g. `League <registrations@example.org>`; required with `SMTP_URL`." },
  { name: 'NOTIFICATION_TIMEOUT_MS', default: '15000', meaning: 'Time limit of each SMTP step and each Slack/Teams webhook call.' },
  { name: 'WEBHOOK_ALLOW_HTTP_LOOPBACK', default: 'false', meaning: 'Tests only: allow http Slack/Teams webhook addresses on 127.0.0.1.' },
];
