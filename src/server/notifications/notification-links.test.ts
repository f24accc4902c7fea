import { describe, expect, it } from 'vitest';
import { UPLOAD_LINK_STAND_IN } from '../../contract';
import { linkMarker, withStandIns } from './notification-links';
import { renderHtml, renderText } from './notification-render';

describe('upload link markers', () => {
  const links = [0, 1].map((index) => ({ marker: linkMarker(index), playerId: `p${index}`, seasonId: 's', origin: 'https://league.example' }));

  it('survive rendering as text and as HTML unchanged, and differ per link', () => {
    const [first, second] = links;
    expect(first?.marker).not.toBe(second?.marker);
    const text = renderText('Upload here: {{uploadLink}}', { uploadLink: first?.marker ?? '' });
    expect(text).toBe(`Upload here: ${first?.marker ?? 'none'}`);
    expect(renderHtml('<b>{{uploadLink}}</b>', { uploadLink: first?.marker ?? '' })).toContain(`&lt;b&gt;${first?.marker ?? 'none'}&lt;/b&gt;`);
  });

  it('read as the stand-in in History and previews, every one of them', () => {
    const text = `Ana: ${links[0]?.marker ?? ''}\nBen: ${links[1]?.marker ?? ''}`;
    expect(withStandIns(text, links)).toBe(`Ana: ${UPLOAD_LINK_STAND_IN}\nBen: ${UPLOAD_LINK_STAND_IN}`);
    expect(withStandIns('No link here', undefined)).toBe('No link here');
  });
});
