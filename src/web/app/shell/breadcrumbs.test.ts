import { describe, expect, it } from 'vitest';
import { capitalise, deriveBreadcrumbs } from './breadcrumbs';

describe('deriveBreadcrumbs', () => {
  it('gives only the home crumb on the dashboard', () => {
    expect(deriveBreadcrumbs('/')).toEqual([{ label: 'Dashboard', href: '/' }]);
  });

  it('always starts with the home crumb', () => {
    expect(deriveBreadcrumbs('/players')[0]).toEqual({ label: 'Dashboard', href: '/' });
  });

  it.each([
    ['/players', 'Players'],
    ['/documents', 'Documents'],
    ['/reports', 'Reports'],
    ['/uploads', 'Recent Uploads'],
    ['/settings', 'Settings'],
    ['/users', 'User Management'],
    ['/notifications', 'Notifications'],
    ['/user-guide', 'User Guide'],
    ['/backend-workflow', 'App Workflow'],
  ])('labels %s as %s', (path, label) => {
    expect(deriveBreadcrumbs(path)).toEqual([
      { label: 'Dashboard', href: '/' },
      { label, href: path },
    ]);
  });

  it('capitalises unknown segments and links each level', () => {
    expect(deriveBreadcrumbs('/players/history')).toEqual([
      { label: 'Dashboard', href: '/' },
      { label: 'Players', href: '/players' },
      { label: 'History', href: '/players/history' },
    ]);
  });

  it('ignores a trailing slash and decodes escaped characters', () => {
    expect(deriveBreadcrumbs('/missing%20page/').at(-1)).toEqual({ label: 'Missing page', href: '/missing%20page' });
  });

  it('keeps a malformed escape as written instead of failing', () => {
    expect(deriveBreadcrumbs('/%E0%A4%A').at(-1)?.label).toBe('%E0%A4%A');
  });
});

describe('capitalise', () => {
  it('upper-cases only the first letter', () => {
    expect(capitalise('reports-archive')).toBe('Reports-archive');
    expect(capitalise('')).toBe('');
  });
});
