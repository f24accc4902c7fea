import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZCreateUser, ZUpdateUser, ZUserList, ZUserListQuery, ZUserParams, ZUserResponse } from '../../contract';
import type { UsersService } from './users.service';
import { actorOf } from '../platform/http/access';

/** User Management: list, add, change and delete staff accounts; behind the session like all of /api. */
export function registerUserRoutes(parent: FastifyInstance, deps: { users: UsersService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { users } = deps;

  app.get('/api/users', { config: { access: 'read' }, schema: { querystring: ZUserListQuery, response: { 200: ZUserList } } }, (request) => users.listUsers(request.query));

  app.post('/api/users', { config: { access: 'users.manage' }, schema: { body: ZCreateUser, response: { 201: ZUserResponse } } }, async (request, reply) =>
    reply.status(201).send(await users.createUser(request.body, actorOf(request))),
  );

  app.patch('/api/users/:id', { config: { access: 'users.manage' }, schema: { params: ZUserParams, body: ZUpdateUser, response: { 200: ZUserResponse } } }, (request) =>
    users.updateUser(request.params.id, request.body, actorOf(request)),
  );

  app.delete('/api/users/:id', { config: { access: 'users.manage' }, schema: { params: ZUserParams } }, async (request, reply) => {
    await users.deleteUser(request.params.id, actorOf(request));
    return reply.status(204).send();
  });
}
