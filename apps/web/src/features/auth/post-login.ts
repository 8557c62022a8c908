import { resolvePostLoginRedirect } from '@parla/contracts';
import { listBuiltRoutes } from '../../lib/app-paths';
import { pendingInvitePath } from '../workspace';

/** Where a signed-in user lands when no (allowed) redirect was asked for. */
export const defaultAfterSignIn = '/app/home';

/**
 * The page after sign-in or sign-up for this page's `redirect` parameter (accounts §2): same origin and on
 * the allow list, or the built pages of lib/app-paths.ts (the spec's "further route tables"), else the
 * invitation opened while signed out and not answered yet (issue 18), else the default.
 */
export function afterSignInPath(search: URLSearchParams, origin: string = window.location.origin): string {
  const extraPaths = listBuiltRoutes()
    .map((entry) => entry.path)
    .filter((path) => !path.includes(':') && !path.startsWith('/app/sign-'));
  const target = resolvePostLoginRedirect(search.get('redirect'), {
    origin,
    fallback: pendingInvitePath() ?? defaultAfterSignIn,
    extraPaths,
  });
  return pageOf(target);
}

/**
 * The page an allowed API-style shape stands for (accounts §2 "Allowed shapes"): `/v1/dubs/{id}` is that
 * dub's editor, `/v1/projects/{id}` that Studio project's editor (issue 30 item 3). Other paths are pages
 * already (`/app/studio/{id}` among them).
 */
function pageOf(path: string): string {
  const dub = /^\/v1\/dubs\/([^/?#]+)$/.exec(path);
  if (dub) return `/app/dubbing/${dub[1]}`;
  const project = /^\/v1\/projects\/([^/?#]+)$/.exec(path);
  return project ? `/app/studio/${project[1]}` : path;
}
