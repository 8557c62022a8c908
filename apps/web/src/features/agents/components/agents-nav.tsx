import type { ReactNode } from 'react';
import { appPaths, listBuiltRoutes, type RouteEntry } from '../../../lib/app-paths';
import { SectionNav, SectionPageHeader } from '../../../ui/section-nav';

/** The conversational AI pages (history/voices §2), in the order the sub-navigation shows them. */
const agentPages: ReadonlyArray<{ path: string; label: string }> = [
  { path: '/app/conversational-ai', label: 'Agents' },
  { path: '/app/conversational-ai/knowledge-base', label: 'Knowledge base' },
  { path: '/app/conversational-ai/tools', label: 'Tools' },
  { path: '/app/conversational-ai/history', label: 'Call history' },
  { path: '/app/conversational-ai/talk-to', label: 'Talk to an agent' },
  { path: '/app/conversational-ai/agent-testing', label: 'Agent testing' },
  { path: '/app/conversational-ai/phone-numbers', label: 'Phone numbers' },
  { path: '/app/conversational-ai/batch-calling', label: 'Batch calling' },
  { path: '/app/conversational-ai/integrations', label: 'Integrations' },
  { path: '/app/conversational-ai/settings', label: 'Settings' },
];

/** The links among the built pages: a page not built yet is not offered (it would say "Page not found"). */
export function agentsNavLinks(table: readonly RouteEntry[] = appPaths) {
  const built = new Set(listBuiltRoutes(table).map((entry) => entry.path));
  return agentPages.filter((page) => built.has(page.path));
}

/** The links between the built conversational AI pages (a page built later appears by itself). */
export function AgentsNav() {
  return <SectionNav label="Conversational AI" links={agentsNavLinks()} />;
}

/** The top of a conversational AI page: its title, a line about it, actions and the sub-navigation. */
export function AgentsPageHeader(props: { title: string; description: ReactNode; actions?: ReactNode }) {
  return <SectionPageHeader {...props} nav={<AgentsNav />} />;
}
