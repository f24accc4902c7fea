import { describe, expect, it } from 'vitest';
import { isNavItemActive, NAV_ITEMS, visibleNavItems } from './nav-items';

describe('NAV_ITEMS', () => {
  it('lists the sidebar entries in order', () => {
    expect(NAV_ITEMS.map((item) => item.label)).toEqual([
      'Dashboard',
      'Players',
      'Documents',
      'Review',
      'Reports',
      'User Management',
      'User Guide',
      'Notifications',
      'App Workflow',
      'Settings',
    ]);
  });
});

describe('visibleNavItems', () => {
  it('shows Review only to those who may review documents', () => {
    expect(visibleNavItems(() => true).map((item) => item.label)).toContain('Review');
    const viewer = visibleNavItems((permission) => permission === 'read');
    expect(viewer.map((item) => item.label)).not.toContain('Review');
    expect(viewer).toHaveLength(NAV_ITEMS.length - 1);
  });
});

describe('isNavItemActive', () => {
  it('marks the dashboard active on / only', () => {
    expect(isNavItemActive('/', '/')).toBe(true);
    expect(isNavItemActive('/players', '/')).toBe(false);
  });

  it('marks an entry active on its path and below, not on a path that merely starts alike', () => {
    expect(isNavItemActive('/users', '/users')).toBe(true);
    expect(isNavItemActive('/users/3', '/users')).toBe(true);
    expect(isNavItemActive('/user-guide', '/users')).toBe(false);
  });
});
