import {
  BarChart3,
  Bell,
  BookOpen,
  FileText,
  LayoutDashboard,
  Settings,
  UserCog,
  Users,
  Workflow,
  type LucideIcon,
} from 'lucide-react';

export interface NavItem {
  label: string;
  href: string;
  icon: LucideIcon;
}

/** Sidebar entries, in the order they are shown. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', href: '/', icon: LayoutDashboard },
  { label: 'Players', href: '/players', icon: Users },
  { label: 'Documents', href: '/documents', icon: FileText },
  { label: 'Reports', href: '/reports', icon: BarChart3 },
  { label: 'User Management', href: '/users', icon: UserCog },
  { label: 'User Guide', href: '/user-guide', icon: BookOpen },
  { label: 'Notifications', href: '/notifications', icon: Bell },
  { label: 'App Workflow', href: '/backend-workflow', icon: Workflow },
  { label: 'Settings', href: '/settings', icon: Settings },
];

/** An entry is active on its own path and below it; the Dashboard only on '/'. */
export function isNavItemActive(pathname: string, href: string): boolean {
  if (href === '/') return pathname === '/';
  return pathname === href || pathname.startsWith(`${href}/`);
}
