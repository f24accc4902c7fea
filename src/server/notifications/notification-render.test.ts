import { describe, expect, it } from 'vitest';
import { describeDocTypes, describeNeededDocuments, escapeHtml, formatDeadline, renderHtml, renderText, UnknownPlaceholderError } from './notification-render';

describe('renderText', () => {
  it('fills every placeholder, with or without spaces inside the braces, and leaves values as they are', () => {
    const text = renderText('Hello {{guardianName}}, {{ playerName }} needs {{missingDocuments}} by {{deadline}} ({{season}}).', {
      guardianName: 'Sam <Lee> & Co',
      playerName: 'Ava Smith',
      missingDocuments: 'Medical Form',
      deadline: 'Friday, 14 November 2025',
      season: 'Fall Ball 2025',
    });
    expect(text).toBe('Hello Sam <Lee> & Co, Ava Smith needs Medical Form by Friday, 14 November 2025 (Fall Ball 2025).');
  });

  it('renders a known placeholder without a value as empty', () => {
    expect(renderText('[{{playerName}}]', {})).toBe('[]');
  });

  it('refuses an unknown placeholder and names it', () => {
    expect(() => renderText('Hi {{parentName}} and {{team}}', {})).toThrow(UnknownPlaceholderError);
    expect(() => renderText('Hi {{parentName}} and {{team}}', {})).toThrow('Unknown placeholders {{parentName}}, {{team}} in the template.');
  });

  it('does not substitute inside a value (a value that looks like a placeholder stays as typed)', () => {
    expect(renderText('{{guardianName}} / {{playerName}}', { guardianName: '{{playerName}}', playerName: 'Ava' })).toBe('{{playerName}} / Ava');
  });
});

describe('renderHtml', () => {
  it('escapes the values and the template text, and keeps line breaks', () => {
    const html = renderHtml('Hello {{guardianName}} & family,\n<b>{{playerName}}</b>', {
      guardianName: '<script>alert("x")</script>',
      playerName: "O'Brien",
    });
    expect(html).toContain('Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; family,<br>\n&lt;b&gt;O&#39;Brien&lt;/b&gt;');
    expect(html).not.toContain('<script>');
    expect(html.startsWith('<!doctype html>')).toBe(true);
  });

  it('refuses an unknown placeholder too', () => {
    expect(() => renderHtml('{{nope}}', {})).toThrow('Unknown placeholder {{nope}} in the template.');
  });
});

describe('helpers', () => {
  it('escapes the five HTML characters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });

  it('lists missing document types in words', () => {
    expect(describeDocTypes([])).toBe('none');
    expect(describeDocTypes(['medical'])).toBe('Medical Form');
    expect(describeDocTypes(['medical', 'waiver'])).toBe('Medical Form and Liability Waiver');
    expect(describeDocTypes(['birth_certificate', 'residency', 'waiver'])).toBe('Birth Certificate, Residency Proof and Liability Waiver');
    expect(describeNeededDocuments({ missing: ['waiver'], expiring: [{ docType: 'medical', on: '2026-09-01' }] })).toBe(
      'Liability Waiver and Medical Form (expires 1 Sep 2026)',
    );
    expect(describeNeededDocuments({ missing: [], expiring: [{ docType: 'medical', on: '2027-12-31' }] })).toBe('Medical Form (expires 31 Dec 2027)');
  });

  it('writes the deadline date in words, whatever the server time zone', () => {
    expect(formatDeadline('2025-11-14')).toBe('Friday, November 14, 2025');
  });
});
