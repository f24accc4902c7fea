import { describe, expect, it } from 'vitest';
import { chatPayload, webhookUrlProblem } from './webhook';

describe('webhookUrlProblem', () => {
  it('accepts https', () => {
    expect(webhookUrlProblem('slack', 'https://hooks.slack.com/services/T/B/x', { allowHttpLoopback: false })).toBeUndefined();
  });

  it('refuses http, and other schemes, outside tests', () => {
    expect(webhookUrlProblem('slack', 'http://hooks.example.org/x', { allowHttpLoopback: false })).toBe(
      'The Slack webhook must be an https:// address (got http)',
    );
    expect(webhookUrlProblem('teams', 'http://127.0.0.1:8080/x', { allowHttpLoopback: false })).toMatch(/must be an https/);
    expect(webhookUrlProblem('teams', 'ftp://example.org/x', { allowHttpLoopback: true })).toMatch(/got ftp/);
    expect(webhookUrlProblem('teams', 'not a url', { allowHttpLoopback: true })).toBe('The Microsoft Teams webhook is not a web address');
  });

  it('allows http to loopback only with the test setting', () => {
    expect(webhookUrlProblem('slack', 'http://127.0.0.1:9/x', { allowHttpLoopback: true })).toBeUndefined();
    expect(webhookUrlProblem('slack', 'http://[::1]:9/x', { allowHttpLoopback: true })).toBeUndefined();
    expect(webhookUrlProblem('slack', 'http://10.0.0.5/x', { allowHttpLoopback: true })).toMatch(/must be an https/);
  });
});

describe('chatPayload', () => {
  it('sends Slack a text with the title in bold', () => {
    expect(chatPayload('slack', { title: 'Weekly', text: 'Received: 3' })).toEqual({ text: '*Weekly*\nReceived: 3' });
  });

  it('sends Teams a MessageCard', () => {
    expect(chatPayload('teams', { title: 'Weekly', text: 'a\nb' })).toMatchObject({
      '@type': 'MessageCard',
      title: 'Weekly',
      summary: 'Weekly',
      text: 'a\n\nb',
    });
  });
});
