import { appPaths, listNavEntries, type RouteEntry, type RouteSection } from './app-paths';

/** The two frames a page can sit in: the app's sidebar, or the marketing header. */
export type ShellFrameKind = 'app' | 'site';

/** A group of the sidebar: a product area and its built pages. */
export interface NavGroup {
  section: RouteSection;
  /** The group's heading; none for Home, which stands alone at the top. */
  label: string | null;
  entries: RouteEntry[];
}

/**
 * The product areas of the sidebar, in order. Workspace and account pages are reached from the account
 * menu at the sidebar's foot, the site's pages from the marketing header.
 */
export const sidebarSections: ReadonlyArray<{ section: RouteSection; label: string | null }> = [
  { section: 'home', label: null },
  { section: 'audio', label: 'Audio' },
  { section: 'voices', label: 'Voices' },
  { section: 'agents', label: 'Agents' },
  { section: 'publishing', label: 'Publishing' },
  { section: 'developers', label: 'Developers' },
];

/**
 * The sidebar's groups from the page paths: every built page marked `inNav` in a product area, so an area
 * appears once a page of it is built and nothing unbuilt is listed. Empty groups are left out.
 */
export function listSidebarGroups(table: readonly RouteEntry[] = appPaths): NavGroup[] {
  const entries = listNavEntries(table);
  return sidebarSections
    .map(({ section, label }) => ({
      section,
      label,
      entries: entries.filter((entry) => entry.section === section),
    }))
    .filter((group) => group.entries.length > 0);
}

/** The marketing header's links: the built site pages marked `inNav` (the landing page, pricing). */
export function listSiteNavEntries(table: readonly RouteEntry[] = appPaths): RouteEntry[] {
  return listNavEntries(table).filter((entry) => entry.section === 'site');
}

/** The focused first-run pages (the survey and its next step): no sidebar to wander off into. */
const focusedPaths: ReadonlySet<string> = new Set(['/app/onboarding', '/app/onboarding/next']);

/** The app pages a visitor may open (app-paths `openToVisitors`). */
function isOpenToVisitors(pathname: string, table: readonly RouteEntry[]): boolean {
  const path = pathname.replace(/\/+$/, '');
  return table.some((entry) => entry.openToVisitors === true && entry.path === path);
}

/**
 * Which frame a page sits in: the marketing header on the site's pages, the auth pages, the hosted billing
 * pages and the onboarding survey; the sidebar everywhere else under /app (an unknown /app path included,
 * whose "Page not found" then keeps the way back into the app). An app page open to visitors sits in the
 * marketing header for a `visitor` (not signed in), whose sidebar would only lead to sign-in.
 */
export function shellFrameOf(
  section: RouteSection | undefined,
  pathname: string,
  visitor = false,
  table: readonly RouteEntry[] = appPaths,
): ShellFrameKind {
  if (section === undefined) return pathname.startsWith('/app/') ? 'app' : 'site';
  if (section === 'site' || section === 'auth' || section === 'billing') return 'site';
  if (visitor && isOpenToVisitors(pathname, table)) return 'site';
  return focusedPaths.has(pathname.replace(/\/+$/, '')) ? 'site' : 'app';
}

/**
 * The navigation entry a page belongs to: the entry of its own path, or of the closest enclosing one
 * (a text-to-speech history page belongs to Text to speech; the voice lab's collections to their own
 * entry, not to the voice lab). Undefined when no entry encloses it.
 */
export function findActiveNavPath(pathname: string, paths: readonly string[]): string | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  let best: string | undefined;
  for (const candidate of paths) {
    const encloses = candidate === path || (candidate !== '/' && path.startsWith(`${candidate}/`));
    if (encloses && (best === undefined || candidate.length > best.length)) best = candidate;
  }
  return best;
}
