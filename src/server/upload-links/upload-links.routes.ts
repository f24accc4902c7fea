import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZFamilyPage,
  ZPlayerIdParams,
  ZUploadLink,
  ZUploadLinkRequest,
  ZUploadLinkRevokeQuery,
  ZUploadLinkRevokeResult,
  ZUploadLinkStatus,
  ZUploadLinkStatusQuery,
} from '../../contract';
import { actorOf, principalOf } from '../platform/http/access';
import { perAddressRateLimit } from '../platform/http/rate-limit';
import type { UploadLinksService } from './upload-links.service';

/** The origin the request came to (its Host already checked by the access gate), for links when no public address is set. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** A family link's token as the path carries it: judged by the service (a malformed one is answered as unknown). */
export const ZFamilyTokenParams = z.object({ token: z.string() });

/** Family page reads per client address per minute: far more than a family opening its page ever makes. */
export const FAMILY_PAGE_READS_PER_MINUTE = 60;

export function registerUploadLinkRoutes(parent: FastifyInstance, deps: { uploadLinks: UploadLinksService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { uploadLinks } = deps;

  app.post(
    '/api/players/:playerId/upload-link',
    {
      config: { access: 'notifications.send' },
      schema: { params: ZPlayerIdParams, body: ZUploadLinkRequest, response: { 201: ZUploadLink } },
    },
    async (request, reply) =>
      reply.status(201).send(await uploadLinks.issue(request.params.playerId, request.body.season, actorOf(request), originOf(request))),
  );

  app.get(
    '/api/players/:playerId/upload-link',
    { config: { access: 'read' }, schema: { params: ZPlayerIdParams, querystring: ZUploadLinkStatusQuery, response: { 200: ZUploadLinkStatus } } },
    (request) => uploadLinks.status(request.params.playerId, request.query.season, principalOf(request)),
  );

  app.delete(
    '/api/players/:playerId/upload-link',
    {
      config: { access: 'notifications.send' },
      schema: { params: ZPlayerIdParams, querystring: ZUploadLinkRevokeQuery, response: { 200: ZUploadLinkRevokeResult } },
    },
    (request) => uploadLinks.revoke(request.params.playerId, request.query.season, actorOf(request)),
  );

  app.get(
    '/api/family/:token',
    {
      // Public: a family has no account; the link's token in the path is the credential (decision 028).
      config: { access: 'public', rateLimit: perAddressRateLimit(FAMILY_PAGE_READS_PER_MINUTE, 'upload page requests') },
      schema: { params: ZFamilyTokenParams, response: { 200: ZFamilyPage } },
    },
    (request) => uploadLinks.openFamilyPage(request.params.token),
  );
}
