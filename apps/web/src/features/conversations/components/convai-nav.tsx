import type { ReactNode } from 'react';
import { appPaths, listBuiltRoutes, type RouteEntry } from '../../../lib/app-paths';
import { SectionNav, SectionPageHeader } from '../../../ui/section-nav';

/** The Conversational AI pages (history/voices §2), in the order the sub-navigation shows them. */
const convaiPages: ReadonlyArray<{ path: string; label: string }> = [
  { path: '/app/conversational-ai', label: 'Agents' },
  { path: '/app/conversational-ai/knowledge-base', label: 'Knowledge base' },
  { path: '/app/conversational-ai/tools', label: 'Tools' },
  { path: '/app/conversational-ai/history', label: 'Call history' },
  { path: '/app/conversational-ai/talk-to', label: 'Talk to an agent' },
  { path: '/app/conversational-ai/settings', label: 'Settings' },
];

/** The links among the built ones: a page not built yet is not offered (it would say "Page not found"). */
export function convaiNavLinks(table: readonly RouteEntry[] = appPaths) {
  const built = new Set(listBuiltRoutes(table).map((entry) => entry.path));
  return convaiPages.filter((page) => built.has(page.path));
}

/** The links between the Conversational AI pages. */
export function ConvaiNav() {
  return <SectionNav label="Conversational AI" links={convaiNavLinks()} />;
}

/** The top of a Conversational AI page: its title, a line about it, actions and the sub-navigation. */
export function ConvaiPageHeader(props: { title: string; description: ReactNode; actions?: ReactNode }) {
  return <SectionPageHeader {...props} nav={<ConvaiNav />} />;
}
