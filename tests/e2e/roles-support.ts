import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { TUserRole } from '../../src/contract';
import { startPrivateServer } from './private-server';

/**
 * A Clearbase of its own for the roles spec (tests/e2e/private-server.ts), whose database the spec writes to: a
 * person of any role is a row in `users` and a signed-in session a row in `sessions`, whose id is the SHA-256 of
 * the cookie's token, as the sign-in service keeps it. Demo data fills the screens; a private Dovecot is its
 * mailbox, so the mailbox controls show.
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
  const server = await startPrivateServer({ name: 'roles', mailbox: true });
  const { db } = server;
  return {
    url: server.url,
    async signInAs(page, role) {
      const email = `${role}-${randomUUID()}@roles.e2e.example`;
      const inserted = await db.query<{ id: string }>(
        `insert into users (email, first_name, last_name, role, status) values ($1, $2, $3, $4, 'active') returning id`,
        [email, 'Role', `Test ${role}`, role],
      );
      const userId = inserted.rows[0]?.id;
      if (!userId) throw new Error('the user row was not inserted');
      const token = randomBytes(32).toString('base64url');
      const sessionId = createHash('sha256').update(token).digest('hex');
      await db.query(`insert into sessions (id, expires_at, last_seen_at, user_id) values ($1, now() + interval '1 hour', now(), $2)`, [sessionId, userId]);
      await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
      return { userId, email };
    },
    async setRole(userId, role) {
      await db.query('update users set role = $1 where id = $2', [role, userId]);
    },
    stop: server.stop,
  };
}
