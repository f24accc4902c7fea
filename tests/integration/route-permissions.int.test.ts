import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  FORBIDDEN_MESSAGE,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  TWO_FACTOR_SETUP_REQUIRED_MESSAGE,
  ZApiError,
  type TPermission,
} from '../../src/contract';
import type { RouteEntry } from '../../src/server/app';
import { users } from '../../src/server/platform/db/schema';
import { describeEachDatabase } from '../support/databases';
import { signInAsUser } from '../support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

/**
 * Every route of Fastify's own table, called by every kind of signed-in person: the permission each route
 * declares beside its schema is what decides, and a route added tomorrow is walked without an edit here.
 *
 * A refused call must be the gate's 403 (before the body is even read). An allowed call must get past the
 * gate; so that it changes nothing, a state-changing call is sent with a text/plain body, which the API
 * never parses: past the gate, it answers 415, and no handler runs.
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const A_UUID = '7b0e7a52-5c1d-4b8e-9a0b-3f6a2c1d4e5f';
const concretePath = (url: string) => url.replace(/:\w+/g, A_UUID);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type Caller = {
  name: string;
  cookie: string;
  /** What the gate should let through for this caller. */
  allows(permission: TPermission): boolean;
  /** The message of a refusal. */
  refusal: string;
};

describeEachDatabase('permissions over the route table', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const callers: Caller[] = [];
  const routes = (): RouteEntry[] => server?.app.routeTable ?? [];

  beforeAll(async () => {
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-perm', startWorkers: false });
    const { db } = getDatabase();
    const role = (name: keyof typeof ROLE_PERMISSIONS) => (permission: TPermission) => ROLE_PERMISSIONS[name].includes(permission);
    const viewer = await signInAsUser(db, { role: 'viewer' });
    const moderator = await signInAsUser(db, { role: 'moderator' });
    const coordinator = await signInAsUser(db, { role: 'moderator', divisions: ['AA'] });
    const admin = await signInAsUser(db, { role: 'admin' });
    const unenrolledAdmin = await signInAsUser(db, { role: 'admin' });
    // Admins must use two-step sign-in: the enrolled one may do everything, the other only their own account.
    await db.update(users).set({ totpEnabledAt: new Date() }).where(eq(users.id, admin.userId));
    const turnedOn = await server.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: { cookie: server.cookie },
      payload: { requireTwoFactorForAdmins: true },
    });
    expect(turnedOn.statusCode).toBe(200);
    callers.push(
      { name: 'viewer', cookie: viewer.cookie, allows: role('viewer'), refusal: FORBIDDEN_MESSAGE },
      { name: 'moderator', cookie: moderator.cookie, allows: role('moderator'), refusal: FORBIDDEN_MESSAGE },
      { name: 'moderator of AA only', cookie: coordinator.cookie, allows: role('moderator'), refusal: FORBIDDEN_MESSAGE },
      { name: 'admin', cookie: admin.cookie, allows: role('admin'), refusal: FORBIDDEN_MESSAGE },
      { name: 'shared password', cookie: server.cookie, allows: () => true, refusal: FORBIDDEN_MESSAGE },
      {
        name: 'admin yet to set up two-step sign-in',
        cookie: unenrolledAdmin.cookie,
        allows: (permission) => permission === 'account',
        refusal: TWO_FACTOR_SETUP_REQUIRED_MESSAGE,
      },
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('has a declared access on every route: public, or one of the permissions', () => {
    const known = new Set<string>(['public', ...PERMISSIONS]);
    const undeclared = routes().filter((route) => route.access === undefined || !known.has(route.access));
    expect(undeclared).toEqual([]);
    // Each permission guards at least one route, so the table above is not a list of words nobody checks.
    const used = new Set(routes().map((route) => route.access));
    expect(PERMISSIONS.filter((permission) => !used.has(permission))).toEqual([]);
  });

  it('opens no state-changing route to read-only access: a viewer changes nothing', () => {
    const changing = routes().filter((route) => !SAFE_METHODS.has(route.method) && route.access === 'read');
    expect(changing.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  it('answers every private route, for every caller, as the route’s permission and the caller’s role say', async () => {
    const app = server?.app;
    if (!app) throw new Error('server not started');
    const outcomes = new Map<string, { allowed: number; refused: number }>();
    // Sign-out routes go last: they end the caller's own session.
    const privateRoutes = routes()
      .filter((route) => route.access !== 'public' && route.access !== undefined)
      .sort((a, b) => Number(a.url.startsWith('/api/auth/')) - Number(b.url.startsWith('/api/auth/')));
    expect(privateRoutes.length).toBeGreaterThan(40);
    for (const route of privateRoutes) {
      const permission = route.access as TPermission;
      for (const caller of callers) {
        const safe = SAFE_METHODS.has(route.method);
        const answer = await app.inject({
          method: route.method as 'GET',
          url: concretePath(route.url),
          headers: {
            cookie: caller.cookie,
            ...(safe ? {} : { 'content-type': 'text/plain' }),
          },
          ...(safe ? {} : { payload: 'nothing to parse' }),
        });
        const where = `${caller.name}: ${route.method} ${route.url} (needs ${permission})`;
        const body = route.method === 'HEAD' ? undefined : ZApiError.safeParse(parseJson(answer.body)).data;
        const tally = outcomes.get(caller.name) ?? { allowed: 0, refused: 0 };
        outcomes.set(caller.name, tally);
        if (caller.allows(permission)) {
          tally.allowed++;
          expect(answer.statusCode, where).not.toBe(401);
          expect(body?.message, where).not.toBe(caller.refusal);
          if (!safe) expect({ status: answer.statusCode, code: body?.code }, where).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
        } else {
          tally.refused++;
          expect(answer.statusCode, where).toBe(403);
          if (body) expect({ code: body.code, message: body.message }, where).toEqual({ code: 'FORBIDDEN', message: caller.refusal });
        }
      }
    }
    // The walk really refused and allowed: a viewer is refused somewhere, the shared password nowhere.
    expect(outcomes.get('viewer')?.refused).toBeGreaterThan(10);
    expect(outcomes.get('moderator')?.refused).toBeGreaterThan(5);
    expect(outcomes.get('moderator')?.allowed).toBeGreaterThan(outcomes.get('viewer')?.allowed ?? 0);
    expect(outcomes.get('shared password')?.refused).toBe(0);
    expect(outcomes.get('admin yet to set up two-step sign-in')?.allowed).toBeGreaterThanOrEqual(0);
  });
});
