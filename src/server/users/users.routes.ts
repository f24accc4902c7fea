import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCreateUser,
  ZSessionList,
  ZSessionsEnded,
  ZUpdateUser,
  ZUserActivity,
  ZUserActivityQuery,
  ZUserCreated,
  ZUserInvitation,
  ZUserList,
  ZUserListQuery,
  ZUserParams,
  ZUserResponse,
} from '../../contract';
import type { UsersService } from './users.service';
import { actorOf } from '../platform/http/access';

/** The origin the request came to (its Host already checked by the access gate), for links when no public address is set. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** User Management: staff accounts, their invitations, sessions and two-step sign-in, and what each did. */
export function registerUserRoutes(parent: FastifyInstance, deps: { users: UsersService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { users } = deps;

  app.get('/api/users', { config: { access: 'read' }, schema: { querystring: ZUserListQuery, response: { 200: ZUserList } } }, (request) => users.listUsers(request.query));

  app.get('/api/users/activity', { config: { access: 'read' }, schema: { querystring: ZUserActivityQuery, response: { 200: ZUserActivity } } }, (request) =>
    users.activity(request.query),
  );

  app.post('/api/users', { config: { access: 'users.manage' }, schema: { body: ZCreateUser, response: { 201: ZUserCreated } } }, async (request, reply) =>
    reply.status(201).send(await users.createUser(request.body, actorOf(request), originOf(request))),
  );

  app.post('/api/users/:id/invitation', { config: { access: 'users.manage' }, schema: { params: ZUserParams, response: { 200: ZUserInvitation } } }, (request) =>
    users.issueInvitation(request.params.id, actorOf(request), originOf(request)),
  );

  app.patch('/api/users/:id', { config: { access: 'users.manage' }, schema: { params: ZUserParams, body: ZUpdateUser, response: { 200: ZUserResponse } } }, (request) =>
    users.updateUser(request.params.id, request.body, actorOf(request)),
  );

  app.delete('/api/users/:id', { config: { access: 'users.manage' }, schema: { params: ZUserParams } }, async (request, reply) => {
    await users.deleteUser(request.params.id, actorOf(request));
    return reply.status(204).send();
  });

  app.get('/api/users/:id/sessions', { config: { access: 'users.manage' }, schema: { params: ZUserParams, response: { 200: ZSessionList } } }, (request) =>
    users.listSessions(request.params.id, request.session?.id),
  );

  app.delete('/api/users/:id/sessions', { config: { access: 'users.manage' }, schema: { params: ZUserParams, response: { 200: ZSessionsEnded } } }, (request) =>
    users.endSessions(request.params.id, actorOf(request)),
  );

  app.delete('/api/users/:id/two-factor', { config: { access: 'users.manage' }, schema: { params: ZUserParams, response: { 200: ZUserResponse } } }, (request) =>
    users.resetTwoFactor(request.params.id, actorOf(request)),
  );
}
