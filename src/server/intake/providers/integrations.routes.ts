import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIntakeDeliveries, ZIntegration, ZIntegrationPatch, ZIntegrations, ZProviderParams } from '../../../contract';
import { actorOf } from '../../platform/http/access';
import type { IntegrationsService } from './integrations.service';

/** Settings → Integrations: each form builder's secret, download key and question mapping, and its deliveries log. */
export function registerIntegrationRoutes(parent: FastifyInstance, deps: { integrations: IntegrationsService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { integrations } = deps;

  app.get('/api/integrations', { config: { access: 'settings.manage' }, schema: { response: { 200: ZIntegrations } } }, () => integrations.list());

  app.patch(
    '/api/integrations/:provider',
    { config: { access: 'settings.manage' }, schema: { params: ZProviderParams, body: ZIntegrationPatch, response: { 200: ZIntegration } } },
    (request) => integrations.update(request.params.provider, request.body, actorOf(request)),
  );

  app.get(
    '/api/integrations/:provider/deliveries',
    { config: { access: 'settings.manage' }, schema: { params: ZProviderParams, response: { 200: ZIntakeDeliveries } } },
    (request) => integrations.deliveries(request.params.provider),
  );
}
