import { describe, expect, it } from 'vitest';
import { historySummary } from './history-summary';

describe('historySummary', () => {
  it('counts the messages, one or many, with thousands separated', () => {
    expect(historySummary({ total: 1, totalIsEstimate: false })).toBe('1 message, newest first; open a subject to read the message');
    expect(historySummary({ total: 0, totalIsEstimate: false })).toBe('0 messages, newest first; open a subject to read the message');
    expect(historySummary({ total: 1_234, totalIsEstimate: false })).toBe('1,234 messages, newest first; open a subject to read the message');
  });

  it('says an estimated total is one, rounded', () => {
    expect(historySummary({ total: 24_237, totalIsEstimate: true })).toBe('About 24,200 messages, newest first; open a subject to read the message');
  });
});
