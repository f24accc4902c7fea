import { describe, expect, it } from 'vitest';
import { confirmsName, exportProgressText, foldName } from './family-data';

describe('the erase confirmation', () => {
  it('takes the name however it is typed: case, accents and spaces aside', () => {
    expect(foldName('  Léna   MARTIN ')).toBe('lena martin');
    expect(confirmsName('lena martin', 'Léna Martin')).toBe(true);
    expect(confirmsName('Zoë  Ó’Brien', 'Zoe Ó’Brien')).toBe(true);
  });

  it('refuses another name, part of it, or nothing', () => {
    expect(confirmsName('Lena Marti', 'Léna Martin')).toBe(false);
    expect(confirmsName('Martin', 'Léna Martin')).toBe(false);
    expect(confirmsName('   ', '')).toBe(false);
  });
});

describe('exportProgressText', () => {
  it('says how much has come, in KB then MB', () => {
    expect(exportProgressText(null)).toBe('Preparing…');
    expect(exportProgressText(0)).toBe('Preparing…');
    expect(exportProgressText(300)).toBe('1 KB received');
    expect(exportProgressText(200 * 1024)).toBe('200 KB received');
    expect(exportProgressText(3.25 * 1024 * 1024)).toBe('3.3 MB received');
  });
});
