import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, principalOf } from '../platform/http/access';
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
  ZMessagePreview,
  ZRecipientPreview,
  ZRejectionPreviewRequest,
  ZTemplateParams,
  ZPlayerIdParams,
  ZReminderSchedule,
  ZReminderScheduleQuery,
  ZReminderScheduleUpdate,
  ZUploadLinkRequest,
  ZUploadLinkSendResult,
} from '../../contract';
import type { NotificationsService } from './notifications.service';

/** The origin the staff member's browser used (behind a trusted proxy, the one it forwarded). */
const originOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;

export function registerNotificationRoutes(parent: FastifyInstance, deps: { notifications: NotificationsService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { notifications } = deps;

  app.get('/api/notifications/templates', { config: { access: 'read' }, schema: { response: { 200: ZNotificationTemplates } } }, () => notifications.listTemplates());

  app.patch(
    '/api/notifications/templates/:id',
    { config: { access: 'notifications.configure' }, schema: { params: ZTemplateParams, body: ZNotificationTemplatePatch, response: { 200: ZNotificationTemplate } } },
    (request) => notifications.updateTemplate(request.params.id, request.body, actorOf(request)),
  );

  app.post('/api/notifications/preview', { config: { access: 'notifications.send' }, schema: { body: ZNotificationSend, response: { 200: ZRecipientPreview } } }, (request) =>
    notifications.preview(request.body, principalOf(request)),
  );

  // What rejecting a document would e-mail its guardian: for whoever may reject it.
  app.post(
    '/api/notifications/preview/rejection',
    { config: { access: 'documents.review' }, schema: { body: ZRejectionPreviewRequest, response: { 200: ZMessagePreview } } },
    (request) => notifications.previewRejection(request.body, principalOf(request)),
  );

  app.post('/api/notifications/send', { config: { access: 'notifications.send' }, schema: { body: ZNotificationSend, response: { 200: ZNotificationSendResult } } }, (request) =>
    notifications.send(request.body, actorOf(request), originOf(request)),
  );

  // The 'Send link' action of the Players screen: a new upload link e-mailed to the player's guardian now.
  app.post(
    '/api/players/:playerId/upload-link/send',
    { config: { access: 'notifications.send' }, schema: { params: ZPlayerIdParams, body: ZUploadLinkRequest, response: { 200: ZUploadLinkSendResult } } },
    (request) => notifications.sendUploadLink(request.params.playerId, request.body, actorOf(request), originOf(request)),
  );

  app.get(
    '/api/notifications/reminders',
    { config: { access: 'read' }, schema: { querystring: ZReminderScheduleQuery, response: { 200: ZReminderSchedule } } },
    (request) => notifications.readReminderSchedule(request.query),
  );

  app.put(
    '/api/notifications/reminders',
    { config: { access: 'notifications.configure' }, schema: { body: ZReminderScheduleUpdate, response: { 200: ZReminderSchedule } } },
    (request) => notifications.saveReminderSchedule(request.body, actorOf(request)),
  );

  app.get('/api/notifications/history', { config: { access: 'read' }, schema: { querystring: ZNotificationHistoryQuery, response: { 200: ZNotificationHistory } } }, (request) =>
    notifications.listHistory(request.query, principalOf(request)),
  );

  app.get('/api/notifications/quick-actions', { config: { access: 'read' }, schema: { querystring: ZQuickActionsQuery, response: { 200: ZQuickActions } } }, (request) =>
    notifications.quickActions(request.query, principalOf(request)),
  );

  app.get('/api/notifications/settings', { config: { access: 'read' }, schema: { response: { 200: ZNotificationSettings } } }, (request) => notifications.readSettings(principalOf(request)));

  app.put('/api/notifications/settings', { config: { access: 'notifications.configure' }, schema: { body: ZNotificationSettingsUpdate, response: { 200: ZNotificationSettings } } }, (request) =>
    notifications.saveSettings(request.body, actorOf(request)),
  );

  app.post('/api/notifications/settings/test', { config: { access: 'notifications.configure' }, schema: { body: ZNotificationTest, response: { 200: ZNotificationTestResult } } }, (request) =>
    notifications.sendTest(request.body, actorOf(request)),
  );
}
