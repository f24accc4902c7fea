import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startDovecot, type StartedDovecot } from '../../scripts/services/start-dovecot';
import { childServerEnv, freePort, startChildServer, type ChildServer } from '../support/child-server';
import { POSTGRES_ADMIN_URL } from '../support/test-env';

/**
 * A Clearbase of a spec's own, for specs that change what every other spec relies on (the sign-in mode, who may
 * sign in) or that write into the database the server reads: the real server in a child process, on a scratch
 * database of the real PostgreSQL (the shared e2e server's PGlite lives inside its process), with the demo data
 * (or, with `demo: false`, as a new installation: no season, no player) and a shared password of its own. `mailbox` gives it a private Dovecot as its mailbox, so the mailbox controls
 * show. stop() ends the server (and Dovecot) and drops the database and the data folder.
 */
export type PrivateServer = {
  /** Where it listens: `http://127.0.0.1:<port>`. */
  url: string;
  /** Its CLEARBASE_PASSWORD. */
  sharedPassword: string;
  /** Its FORM_WEBHOOK_SECRET, to sign a form submission with (set unless `webhookSecretInEnvironment` is false). */
  webhookSecret: string;
  /** Its private Dovecot's address and user, when it has one. */
  mailbox: { host: string; port: number; user: string; password: string } | undefined;
  /** A connection to its database, for specs that write people and sessions into it. */
  db: pg.Client;
  /** The tail of the server's output, for a failure message. */
  output: () => string;
  stop: () => Promise<void>;
};

export async function startPrivateServer(options: {
  name: string;
  mailbox?: boolean;
  /** False: the Dovecot is not given to the server as IMAP_*, so the mailbox is set up on the Integrations screen. */
  mailboxInEnvironment?: boolean;
  /** False: no FORM_WEBHOOK_SECRET, so the server makes one of its own. */
  webhookSecretInEnvironment?: boolean;
  demo?: boolean;
}): Promise<PrivateServer> {
  const { name, mailbox = false, mailboxInEnvironment = true, webhookSecretInEnvironment = true, demo = true } = options;
  if (!/^[a-z]+$/.test(name)) throw new Error('a private server is named in lower-case letters');
  const dataDir = await mkdtemp(path.join(tmpdir(), `cb-e2e-${name}-`));
  const database = `cb_e2e_${name}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const adminUrl = POSTGRES_ADMIN_URL;
  await withClient(adminUrl, (admin) => admin.query(`create database ${database}`));
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;

  const started: ChildServer[] = [];
  let dovecot: StartedDovecot | undefined;
  let db: pg.Client | undefined;
  const stop = async () => {
    await db?.end().catch(() => undefined);
    await Promise.all(started.map((child) => child.kill()));
    await dovecot?.stop();
    await withClient(adminUrl, (admin) => admin.query(`drop database if exists ${database} with (force)`));
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    const imap: Record<string, string> = {};
    let mailboxAddress: PrivateServer['mailbox'];
    if (mailbox) {
      dovecot = await startDovecot();
      const [user] = dovecot.users;
      if (!user) throw new Error('Dovecot started without a user');
      mailboxAddress = { host: dovecot.host, port: dovecot.port, user: user.user, password: user.password };
      if (mailboxInEnvironment) {
        Object.assign(imap, { IMAP_HOST: dovecot.host, IMAP_PORT: String(dovecot.port), IMAP_TLS: 'false', IMAP_USER: user.user, IMAP_PASSWORD: user.password });
      }
    }
    const sharedPassword = `e2e-${name}-${randomUUID()}`;
    const webhookSecret = `e2e-${name}-webhook-${randomUUID()}`;
    const env = childServerEnv({
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      DATABASE_URL: databaseUrl.toString(),
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: sharedPassword,
      CLEARBASE_DEMO: demo ? 'true' : 'false',
      CLEARBASE_LOGIN_RATE_LIMIT: '1000',
      ...(webhookSecretInEnvironment ? { FORM_WEBHOOK_SECRET: webhookSecret } : {}),
      ...imap,
      LOG_LEVEL: 'warn',
    });
    // The first start migrates the database and seeds the demo data: on a busy machine that takes a while.
    const server = await startChildServer(env, started, { entry: 'tests/e2e/private-server-main.ts', healthyWithinMs: 180_000 });
    const client = new pg.Client({ connectionString: databaseUrl.toString() });
    await client.connect();
    db = client;
    return { url: server.url, sharedPassword, webhookSecret, mailbox: mailboxAddress, db: client, output: () => server.output(), stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
