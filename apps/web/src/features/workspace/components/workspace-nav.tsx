import type { ReactNode } from 'react';
import { SectionNav, SectionPageHeader } from '../../../ui/section-nav';

/** The workspace pages (accounts §2 "workspace (members, groups, …, security)"), in the order shown. */
const workspacePages: ReadonlyArray<{ path: string; label: string }> = [
  { path: '/app/workspace', label: 'Overview' },
  { path: '/app/workspace/members', label: 'Members' },
  { path: '/app/workspace/groups', label: 'Groups' },
  { path: '/app/workspace/security', label: 'Security' },
];

/** The links between the workspace pages. */
export function WorkspaceNav() {
  return <SectionNav label="Workspace pages" links={workspacePages} />;
}

/** The top of a workspace page: its title, a line about it, actions on the right and the sub-navigation. */
export function WorkspacePageHeader(props: { title: string; description: ReactNode; actions?: ReactNode }) {
  return <SectionPageHeader {...props} nav={<WorkspaceNav />} />;
}
