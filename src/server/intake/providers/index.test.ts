import { describe, expect, it } from 'vitest';
import { FORM_PROVIDERS } from '../../../contract';
import { PROVIDERS } from './index';
import { PROVIDER_AUTH, webhookPathOf } from './integrations.service';

describe('the form builders registry', () => {
  it.each(FORM_PROVIDERS)('%s: its adapter is its own, proven the way the Integrations screen tells the registrar', (provider) => {
    const adapter = PROVIDERS[provider];
    expect(adapter.id).toBe(provider);
    expect(adapter.authKind).toBe(PROVIDER_AUTH[provider]);
    expect(webhookPathOf(provider).endsWith('/{token}')).toBe(adapter.authKind === 'token');
  });
});
