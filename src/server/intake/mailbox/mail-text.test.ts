import { describe, expect, it } from 'vitest';
import { htmlToText, readOwnText } from './mail-text';
import { body, JANE, read } from './mail.fixture';

describe('readPlayerDetails reads only the sender’s own text of a reply', () => {
  const QUOTED = '> Player: John Smith\n> DOB: 2014-01-01\n> Division: AAA';

  it('ignores quoted lines and keeps reading after them', () => {
    expect(read({ text: `${QUOTED}\n\n${body({})}` })).toEqual(JANE);
    expect(read({ text: `Player: Jane Doe\n>> Division: AAA\nDOB: 2015-03-02\nDivision: AA` })).toEqual(JANE);
  });

  it('does not fall back to the quoted request when the reply lacks the details', () => {
    const text = `Here you go.\n\nOn Tue, Mar 3, 2025 at 10:00 AM Clearbase League <league@example.org> wrote:\n${QUOTED}`;
    expect(read({ subject: 'Re: documents', text })).toBe('No player name, date of birth or division found in the e-mail');
  });

  it.each([
    ['Gmail', 'On Tue, Mar 3, 2025 at 10:00 AM League <league@example.org> wrote:\n\nPlayer: John Smith\nDivision: AAA'],
    ['Gmail, wrapped', 'On Tue, Mar 3, 2025 at 10:00 AM Clearbase League Registration <\nleague@example.org> wrote:\nPlayer: John Smith\nDivision: AAA'],
    ['Outlook', '________________________________\nFrom: League <league@example.org>\nSent: Tuesday, March 3, 2025 10:00 AM\nTo: Mary\nSubject: Documents\n\nPlayer: John Smith\nDivision: AAA'],
    ['Outlook classic', '-----Original Message-----\nFrom: League\nSent: Tuesday\n\nPlayer: John Smith\nDivision: AAA'],
    ['German', 'Am 03.03.2025 um 10:00 schrieb League <league@example.org>:\nPlayer: John Smith\nDivision: AAA'],
    ['French', 'Le mar. 3 mars 2025 à 10:00, League <league@example.org> a écrit :\nPlayer: John Smith\nDivision: AAA'],
  ])('stops at a %s reply header', (_client, history) => {
    expect(read({ subject: 'Re: Registration', text: `${body({})}\n\n${history}` })).toEqual(JANE);
  });

  it('does not take "On Monday … wrote:" without a date for a reply header', () => {
    expect(read({ text: `On Monday my husband wrote:\n${body({})}` })).toEqual(JANE);
  });

  it('reads a forwarded message, which the sender is passing on', () => {
    const gmail = `FYI\n\n---------- Forwarded message ---------\nFrom: Mary Doe <mary.doe@example.com>\nDate: Tue, Mar 3, 2025 at 10:00 AM\nSubject: Documents\nTo: <league@example.org>\n\n${body({})}`;
    expect(read({ subject: 'Fwd: Documents', text: gmail })).toEqual(JANE);
    const apple = `Begin forwarded message:\n\nFrom: Mary Doe <mary.doe@example.com>\nSubject: Documents\nDate: March 3, 2025 at 10:00:00 AM EST\nTo: league@example.org\n\n${body({})}`;
    expect(read({ subject: 'Documents', text: apple })).toEqual(JANE);
    const outlook = `________________________________\nFrom: Mary Doe\nSent: Tuesday, March 3, 2025 10:00 AM\nTo: League\nSubject: Documents\n\n${body({})}`;
    expect(read({ subject: 'FW: Documents', text: outlook })).toEqual(JANE);
    const classic = `-----Original Message-----\nFrom: Mary Doe\nSent: Tuesday\nTo: League\n\n${body({})}`;
    expect(read({ subject: 'FW: Documents', text: classic })).toEqual(JANE);
  });

  it('stops at the quoted history inside a forwarded message', () => {
    const text = `---------- Forwarded message ---------\nFrom: Mary Doe <mary.doe@example.com>\nDate: Tue, Mar 3, 2025\n\n${body({})}\n\nOn Mon, Mar 2, 2025 at 9:00 AM League <league@example.org> wrote:\nDivision: AAA`;
    expect(read({ subject: 'Fwd: Documents', text })).toEqual(JANE);
  });

  it('leaves out the signature after "-- "', () => {
    expect(read({ text: `Player: Jane Doe\nDOB: 2015-03-02\n\n-- \nMary Doe\nDivision: Sales` })).toBe('No division found in the e-mail');
    expect(read({ text: `${body({})}\n-- \nMary Doe, Acme Corp\nDivision: Sales` })).toEqual(JANE);
  });
});

describe('readPlayerDetails reads HTML-only bodies', () => {
  it('reads paragraphs, line breaks and entities', () => {
    const html = '<html><head><style>p { color: red }</style><title>Player: Nope</title></head><body><p>Hi!</p><p>Player: Jos&eacute; Garc&iacute;a<br>DOB: 03/02/2015<br/>Division:&nbsp;AA</p><!-- Division: AAA --><script>var x = "Division: AAA";</script></body></html>';
    expect(read({ html })).toEqual({ ...JANE, firstName: 'José', lastName: 'García' });
  });

  it('reads a table of labels and values', () => {
    const html = '<table><tr><td><b>Player:</b></td><td>Jane Doe</td></tr><tr><th>Date of Birth:</th><td>March 2, 2015</td></tr><tr><td>Division:</td><td>AA</td></tr></table>';
    expect(read({ html })).toEqual(JANE);
  });

  it('reads a form notification with a paragraph per label and per value', () => {
    const html = '<p><strong>Player Name</strong>:</p><p>Jane Doe</p><p><strong>Date of Birth:</strong></p><p>03/02/2015</p><p>Division:</p><p>AA</p>';
    expect(read({ html })).toEqual(JANE);
  });

  it('reads names written with numeric entities in other scripts', () => {
    const html = '<div>Player: &#1048;&#1074;&#1072;&#1085; &#x41F;&#x435;&#x442;&#x440;&#x43E;&#x432;</div><div>DOB: 2015-03-02</div><div>Division: AA</div>';
    expect(read({ html })).toEqual({ ...JANE, firstName: 'Иван', lastName: 'Петров' });
  });

  it('drops quoted replies in <blockquote>, nested or not', () => {
    const html = `<div>${body({}).split('\n').join('<br>')}</div><blockquote type="cite">Division: AAA<blockquote>Player: John Smith</blockquote>Season: 2020</blockquote>`;
    expect(read({ html })).toEqual(JANE);
  });

  it('stops at an Outlook reply header in HTML', () => {
    const html = `<div>${body({}).split('\n').join('<br>')}</div><hr><div id="divRplyFwdMsg"><b>From:</b> League<br><b>Sent:</b> Tuesday<br></div><div>Division: AAA</div>`;
    expect(read({ subject: 'RE: Registration', html })).toEqual(JANE);
  });

  it('prefers the plain-text body when there is one', () => {
    expect(read({ text: body({}), html: '<p>Player: John Smith</p>' })).toEqual(JANE);
    expect(read({ text: '  \n ', html: `<p>${body({}).split('\n').join('</p><p>')}</p>` })).toEqual(JANE);
  });

  it('turns HTML into the lines a reader sees', () => {
    expect(htmlToText('<div>a<br>b</div>\n  <p>c &amp; d &lt;e&gt; &Ntilde;&ntilde; &bogus; &#0; &#xD800;</p>')).toBe('\na\nb\n \nc & d <e> Ññ &bogus;  \n');
  });
});

describe('readOwnText', () => {
  it('keeps the sender’s lines and drops the rest', () => {
    const text = 'Line 1\r\n> quoted\r\nLine 2\u00A0end\r\n\r\nOn Tue, Mar 3, 2025, League wrote:\r\nold';
    expect(readOwnText({ subject: null, text, html: null })).toBe('Line 1\nLine 2 end\n');
  });

  it('stops reading a huge body at 100,000 characters', () => {
    const text = `${'Hello there. '.repeat(10_000)}\nDivision: AA`;
    expect(readOwnText({ subject: null, text, html: null })).not.toContain('Division');
  });
});
