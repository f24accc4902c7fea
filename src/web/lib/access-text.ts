import { DIVISIONS, SHARED_PASSWORD_NAME, type TDivision, type TPrincipal, type TUserRole } from '../../contract';

export const ROLE_LABELS: Record<TUserRole, string> = { admin: 'Admin', moderator: 'Moderator', viewer: 'Viewer' };

/** One line on what each role may do, as the invitation form and the role picker explain it. */
export const ROLE_DESCRIPTIONS: Record<TUserRole, string> = {
  viewer: 'Sees every screen and report, but cannot open files or change anything.',
  moderator: 'Also opens files, approves and rejects documents, adds players, sends notifications and checks the mailbox.',
  admin: "Can do everything, including users and settings, and a family's data: exporting it or erasing a player.",
};

export const ALL_DIVISIONS_LABEL = 'All divisions';

/** 'All divisions' for an unlimited account (an empty list or null), else the divisions in the league's order. */
export function divisionsText(divisions: readonly TDivision[] | null): string {
  if (divisions === null || divisions.length === 0) return ALL_DIVISIONS_LABEL;
  return DIVISIONS.filter((division) => divisions.includes(division)).join(', ');
}

/** Who is signed in, as the shell shows it: the person's name and role, or the shared password. */
export function principalText(principal: TPrincipal | undefined): { name: string; detail: string } {
  if (!principal) return { name: 'Signed in', detail: '' };
  if (principal.kind === 'shared') return { name: SHARED_PASSWORD_NAME, detail: 'Acts as an admin' };
  const scope = principal.divisions === null ? '' : ` · ${divisionsText(principal.divisions)}`;
  return { name: principal.name, detail: `${ROLE_LABELS[principal.role]}${scope}` };
}
