import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { ZRecoveryCodes, ZTwoFactorSetup, ZUserCreated, type TSignInMode, type TUserRole } from '../../src/contract';

/**
 * Personal accounts through the real API, as an admin and the invited person would go through them: for
 * tests that need people signed in as themselves.
 */

/** The `cb_session=…` pair a response set, for the `cookie` header of the next calls. */
export function sessionCookieOf(response: LightMyRequestResponse): string {
  const header = [response.headers['set-cookie'] ?? []].flat().find((line) => line.startsWith('cb_session='));
  if (!header) throw new Error(`no session cookie was set (${response.statusCode} ${response.body})`);
  return header.split(';')[0] ?? '';
}

/** The token of an invitation or reset link: it travels in the link's #fragment. */
export function tokenOfLink(url: string): string {
  const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token');
  if (!token) throw new Error(`no token in the link ${url}`);
  return token;
}

export async function setSignInMode(app: FastifyInstance, adminCookie: string, signInMode: TSignInMode): Promise<void> {
  const response = await app.inject({ method: 'PATCH', url: '/api/settings', headers: { cookie: adminCookie }, payload: { signInMode } });
  if (response.statusCode !== 200) throw new Error(`could not set the sign-in mode: ${response.statusCode} ${response.body}`);
}

export type Person = { id: string; email: string; password: string };

/** Invites a person (as `adminCookie`) and accepts the invitation with `password`: an active account. */
export async function addPerson(
  app: FastifyInstance,
  adminCookie: string,
  person: { email: string; password: string; role?: TUserRole; firstName?: string; lastName?: string; divisions?: string[] },
): Promise<Person> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/users',
    headers: { cookie: adminCookie },
    payload: { email: person.email, firstName: person.firstName ?? 'Test', lastName: person.lastName ?? 'Person', role: person.role ?? 'viewer', divisions: person.divisions ?? [] },
  });
  if (created.statusCode !== 201) throw new Error(`could not invite ${person.email}: ${created.statusCode} ${created.body}`);
  const { user, invitation } = ZUserCreated.parse(created.json());
  const accepted = await app.inject({ method: 'POST', url: '/api/auth/invitation', payload: { token: tokenOfLink(invitation.url), password: person.password } });
  if (accepted.statusCode !== 200) throw new Error(`could not accept the invitation of ${person.email}: ${accepted.statusCode} ${accepted.body}`);
  return { id: user.id, email: person.email, password: person.password };
}

export const loginAs = (app: FastifyInstance, person: { email: string; password: string }, code?: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/auth/login', headers, payload: code === undefined ? { email: person.email, password: person.password } : { email: person.email, password: person.password, code } });

/** Signs a person in and answers their session cookie. */
export async function signInAs(app: FastifyInstance, person: { email: string; password: string }, code?: string): Promise<string> {
  return sessionCookieOf(await loginAs(app, person, code));
}

/** The authenticator app's code for `secret`, `stepsAhead` 30-second steps from now (one step ahead is still accepted). */
export const totpCode = (secret: string, stepsAhead = 0): Promise<string> => generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/** Turns two-step sign-in on for the signed-in person; answers the secret and the recovery codes. */
export async function enrolTwoFactor(app: FastifyInstance, cookie: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await app.inject({ method: 'POST', url: '/api/auth/two-factor/setup', headers: { cookie } });
  if (setup.statusCode !== 200) throw new Error(`two-factor setup answered ${setup.statusCode} ${setup.body}`);
  const { secret } = ZTwoFactorSetup.parse(setup.json());
  const enabled = await app.inject({ method: 'POST', url: '/api/auth/two-factor/enable', headers: { cookie }, payload: { code: await totpCode(secret) } });
  if (enabled.statusCode !== 200) throw new Error(`two-factor enable answered ${enabled.statusCode} ${enabled.body}`);
  return { secret, recoveryCodes: ZRecoveryCodes.parse(enabled.json()).recoveryCodes };
}
