import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZInstallation, ZSystemSettings, ZSystemSettingsPatch } from '../../contract';
import type { SettingsService } from './settings.service';
import { actorOf, principalOf } from '../platform/http/access';

export function registerSettingsRoutes(parent: FastifyInstance, deps: { settings: SettingsService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { settings } = deps;

  app.get('/api/settings', { config: { access: 'read' }, schema: { response: { 200: ZSystemSettings } } }, () => settings.read());

  app.patch('/api/settings', { config: { access: 'settings.manage' }, schema: { body: ZSystemSettingsPatch, response: { 200: ZSystemSettings } } }, (request) =>
    settings.update(request.body, actorOf(request)),
  );

  app.get('/api/settings/installation', { config: { access: 'read' }, schema: { response: { 200: ZInstallation } } }, (request) => settings.installation(principalOf(request)));
}
