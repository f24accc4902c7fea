import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZFormWebhook, ZFormWebhookSecret, ZMailboxSettings, ZMailboxSettingsInput, ZMailboxTestInput, ZMailboxTestResult } from '../../contract';
import { actorOf } from '../platform/http/access';
import type { FormSecret } from './form/form-secret';
import type { MailboxSettingsService } from './mailbox/mailbox-settings';
import type { MailboxService } from './mailbox/mailbox.service';

/**
 * Setting up intake from Settings → Integrations: the form webhook's address and secret (Reveal, Rotate) and
 * the mailbox (its settings, Test connection). All `settings.manage`: each holds or reveals a credential, like
 * the form builders' secrets beside them (`mailbox.configure` only starts and stops the checks).
 */
export function registerIntakeSetupRoutes(
  parent: FastifyInstance,
  deps: { formSecret: FormSecret; mailboxSettings: MailboxSettingsService; mailbox: Pick<MailboxService, 'refresh'> },
): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { formSecret, mailboxSettings, mailbox } = deps;

  app.get('/api/integrations/form-webhook', { config: { access: 'settings.manage' }, schema: { response: { 200: ZFormWebhook } } }, () => formSecret.describe());
  // POSTs: each is audited, and a prefetch or a crawler must not run them.
  app.post('/api/integrations/form-webhook/reveal', { config: { access: 'settings.manage' }, schema: { response: { 200: ZFormWebhookSecret } } }, (request) =>
    formSecret.reveal(actorOf(request)),
  );
  app.post('/api/integrations/form-webhook/rotate', { config: { access: 'settings.manage' }, schema: { response: { 200: ZFormWebhookSecret } } }, (request) =>
    formSecret.rotate(actorOf(request)),
  );

  app.get('/api/integrations/mailbox', { config: { access: 'settings.manage' }, schema: { response: { 200: ZMailboxSettings } } }, () => mailboxSettings.describe());
  app.put(
    '/api/integrations/mailbox',
    { config: { access: 'settings.manage' }, schema: { body: ZMailboxSettingsInput, response: { 200: ZMailboxSettings } } },
    async (request) => {
      const saved = await mailboxSettings.save(request.body, actorOf(request));
      // The mailbox runner takes the saved mailbox up at once, so the status shown next says whether it connects.
      await mailbox.refresh();
      return saved;
    },
  );
  app.post(
    '/api/integrations/mailbox/test',
    { config: { access: 'settings.manage' }, schema: { body: ZMailboxTestInput, response: { 200: ZMailboxTestResult } } },
    (request) => mailboxSettings.test(request.body),
  );
}
