import type { ReactNode } from 'react';
import { listBuiltRoutes } from '../../../lib/app-paths';
import { SectionNav, SectionPageHeader } from '../../../ui/section-nav';

/** The conversational AI pages (history/voices §2), in the order the sub-navigation shows them. */
const agentPages: ReadonlyArray<{ path: string; label: string }> = [
  { path: '/app/conversational-ai', label: 'Agents' },
  { path: '/app/conversational-ai/knowledge-base', label: 'Knowledge base' },
  { path: '/app/conversational-ai/tools', label: 'Tools' },
  { path: '/app/conversational-ai/history', label: 'Call history' },
  { path: '/app/conversational-ai/playground', label: 'Playground' },
  { path: '/app/conversational-ai/settings', label: 'Settings' },
];

/** The links between the built conversational AI pages (a page built later appears by itself). */
export function AgentsNav() {
  const built = new Set(listBuiltRoutes().map((entry) => entry.path));
  return <SectionNav label="Conversational AI" links={agentPages.filter((page) => built.has(page.path))} />;
}

/** The top of a conversational AI page: its title, a line about it, actions and the sub-navigation. */
export function AgentsPageHeader(props: { title: string; description: ReactNode; actions?: ReactNode }) {
  return <SectionPageHeader {...props} nav={<AgentsNav />} />;
}
