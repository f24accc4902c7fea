import {
  BarChart3,
  Bell,
  BookOpen,
  FileCheck2,
  FileText,
  LayoutDashboard,
  Settings,
  UserCog,
  Users,
  Workflow,
  type LucideIcon,
} from 'lucide-react';
import type { TPermission } from '../../../contract';

export interface NavItem {
  label: string;
  href: string;
  icon: LucideIcon;
  /** Shown only to a role that holds it; every signed-in person sees the entries without one. */
  permission?: TPermission;
}

/** Sidebar entries, in the order they are shown. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', href: '/', icon: LayoutDashboard },
  { label: 'Players', href: '/players', icon: Users },
  { label: 'Documents', href: '/documents', icon: FileText },
  { label: 'Review', href: '/review', icon: FileCheck2, permission: 'documents.review' },
  { label: 'Reports', href: '/reports', icon: BarChart3 },
  { label: 'User Management', href: '/users', icon: UserCog },
  { label: 'User Guide', href: '/user-guide', icon: BookOpen },
  { label: 'Notifications', href: '/notifications', icon: Bell },
  { label: 'App Workflow', href: '/backend-workflow', icon: Workflow },
  { label: 'Settings', href: '/settings', icon: Settings },
];

/** The entries a role sees: those it holds the permission of. */
export const visibleNavItems = (can: (permission: TPermission) => boolean): NavItem[] =>
  NAV_ITEMS.filter((item) => item.permission === undefined || can(item.permission));

/** An entry is active on its own path and below it; the Dashboard only on '/'. */
export function isNavItemActive(pathname: string, href: string): boolean {
  if (href === '/') return pathname === '/';
  return pathname === href || pathname.startsWith(`${href}/`);
}
