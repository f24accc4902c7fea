import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZInstallation, ZSystemSettings, ZSystemSettingsPatch } from '../../contract';
import type { SettingsService } from './settings.service';

export function registerSettingsRoutes(parent: FastifyInstance, deps: { settings: SettingsService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { settings } = deps;

  app.get('/api/settings', { schema: { response: { 200: ZSystemSettings } } }, () => settings.read());

  app.patch('/api/settings', { schema: { body: ZSystemSettingsPatch, response: { 200: ZSystemSettings } } }, (request) =>
    settings.update(request.body, { requestId: request.id }),
  );

  app.get('/api/settings/installation', { schema: { response: { 200: ZInstallation } } }, () => settings.installation());
}
