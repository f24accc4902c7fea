export interface Breadcrumb {
  label: string;
  href: string;
}

export const HOME_BREADCRUMB: Breadcrumb = { label: 'Dashboard', href: '/' };

/** The breadcrumb label of each screen's address. */
export const BREADCRUMB_LABELS: Readonly<Record<string, string>> = {
  '/players': 'Players',
  '/documents': 'Documents',
  '/review': 'Review',
  '/reports': 'Reports',
  '/uploads': 'Recent Uploads',
  '/settings': 'Settings',
  '/users': 'User Management',
  '/notifications': 'Notifications',
  '/user-guide': 'User Guide',
  '/backend-workflow': 'App Workflow',
  '/account': 'My Account',
};

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The trail for a path: always the home crumb first, then one crumb per path segment,
 * named from {@link BREADCRUMB_LABELS} or, for unknown segments, the segment capitalised.
 */
export function deriveBreadcrumbs(pathname: string): Breadcrumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const crumbs: Breadcrumb[] = [HOME_BREADCRUMB];
  let href = '';
  for (const segment of segments) {
    href += `/${segment}`;
    crumbs.push({ href, label: BREADCRUMB_LABELS[href] ?? capitalise(decodeSegment(segment)) });
  }
  return crumbs;
}
