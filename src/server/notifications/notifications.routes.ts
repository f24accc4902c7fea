import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZNotificationHistory,
  ZNotificationHistoryQuery,
  ZNotificationSend,
  ZNotificationSendResult,
  ZNotificationSettings,
  ZNotificationSettingsUpdate,
  ZNotificationTemplate,
  ZNotificationTemplatePatch,
  ZNotificationTemplates,
  ZNotificationTest,
  ZNotificationTestResult,
  ZQuickActions,
  ZQuickActionsQuery,
  ZRecipientPreview,
  ZTemplateParams,
} from '../../contract';
import type { NotificationsService } from './notifications.service';

export function registerNotificationRoutes(parent: FastifyInstance, deps: { notifications: NotificationsService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { notifications } = deps;
  const actor = (request: { id: string }) => ({ requestId: request.id });

  app.get('/api/notifications/templates', { schema: { response: { 200: ZNotificationTemplates } } }, () => notifications.listTemplates());

  app.patch(
    '/api/notifications/templates/:id',
    { schema: { params: ZTemplateParams, body: ZNotificationTemplatePatch, response: { 200: ZNotificationTemplate } } },
    (request) => notifications.updateTemplate(request.params.id, request.body, actor(request)),
  );

  app.post('/api/notifications/preview', { schema: { body: ZNotificationSend, response: { 200: ZRecipientPreview } } }, (request) =>
    notifications.preview(request.body),
  );

  app.post('/api/notifications/send', { schema: { body: ZNotificationSend, response: { 200: ZNotificationSendResult } } }, (request) =>
    notifications.send(request.body, actor(request)),
  );

  app.get('/api/notifications/history', { schema: { querystring: ZNotificationHistoryQuery, response: { 200: ZNotificationHistory } } }, (request) =>
    notifications.listHistory(request.query),
  );

  app.get('/api/notifications/quick-actions', { schema: { querystring: ZQuickActionsQuery, response: { 200: ZQuickActions } } }, (request) =>
    notifications.quickActions(request.query),
  );

  app.get('/api/notifications/settings', { schema: { response: { 200: ZNotificationSettings } } }, () => notifications.readSettings());

  app.put('/api/notifications/settings', { schema: { body: ZNotificationSettingsUpdate, response: { 200: ZNotificationSettings } } }, (request) =>
    notifications.saveSettings(request.body, actor(request)),
  );

  app.post('/api/notifications/settings/test', { schema: { body: ZNotificationTest, response: { 200: ZNotificationTestResult } } }, (request) =>
    notifications.sendTest(request.body, actor(request)),
  );
}
