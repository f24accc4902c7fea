import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import pg from 'pg';
import { startDovecot, type StartedDovecot } from '../../scripts/services/start-dovecot';
import type { TUserRole } from '../../src/contract';
import { childServerEnv, freePort, startChildServer, type ChildServer } from '../support/child-server';
import { POSTGRES_ADMIN_URL } from '../support/test-env';

/**
 * A Clearbase of its own for the roles spec, on a scratch database of the real PostgreSQL, so the spec can write
 * to the database the server reads (the shared e2e server's PGlite lives inside its process): a person of any
 * role is a row in `users` and a signed-in session a row in `sessions`, whose id is the SHA-256 of the cookie's
 * token, as the sign-in service keeps it. Demo data fills the screens; a private Dovecot is its mailbox, so the
 * mailbox controls show.
 */
export type RolesServer = {
  url: string;
  /** A new active person of `role` in every division, signed in on `page` (the session cookie is set). */
  signInAs(page: Page, role: TUserRole): Promise<{ userId: string; email: string }>;
  /** Changes a person's role, as an admin would while they have the page open. */
  setRole(userId: string, role: TUserRole): Promise<void>;
  stop(): Promise<void>;
};

const SESSION_COOKIE = 'cb_session';

export async function startRolesServer(): Promise<RolesServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cb-e2e-roles-'));
  const database = `cb_e2e_roles_${process.pid}_${randomBytes(4).toString('hex')}`;
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
    dovecot = await startDovecot();
    const [mailbox] = dovecot.users;
    if (!mailbox) throw new Error('Dovecot started without a user');
    const env = childServerEnv({
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      DATABASE_URL: databaseUrl.toString(),
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: `e2e-roles-${randomUUID()}`,
      CLEARBASE_DEMO: 'true',
      CLEARBASE_LOGIN_RATE_LIMIT: '1000',
      FORM_WEBHOOK_SECRET: `e2e-roles-webhook-${randomUUID()}`,
      IMAP_HOST: dovecot.host,
      IMAP_PORT: String(dovecot.port),
      IMAP_TLS: 'false',
      IMAP_USER: mailbox.user,
      IMAP_PASSWORD: mailbox.password,
      LOG_LEVEL: 'warn',
    });
    // The first start migrates the database and seeds the demo data: on a busy machine that takes a while.
    const server = await startChildServer(env, started, { healthyWithinMs: 180_000 });
    const client = new pg.Client({ connectionString: databaseUrl.toString() });
    await client.connect();
    db = client;

    return {
      url: server.url,
      async signInAs(page, role) {
        const email = `${role}-${randomUUID()}@roles.e2e.example`;
        const inserted = await client.query<{ id: string }>(
          `insert into users (email, first_name, last_name, role, status) values ($1, $2, $3, $4, 'active') returning id`,
          [email, 'Role', `Test ${role}`, role],
        );
        const userId = inserted.rows[0]?.id;
        if (!userId) throw new Error('the user row was not inserted');
        const token = randomBytes(32).toString('base64url');
        const sessionId = createHash('sha256').update(token).digest('hex');
        await client.query(`insert into sessions (id, expires_at, last_seen_at, user_id) values ($1, now() + interval '1 hour', now(), $2)`, [sessionId, userId]);
        await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
        return { userId, email };
      },
      async setRole(userId, role) {
        await client.query('update users set role = $1 where id = $2', [role, userId]);
      },
      stop,
    };
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
