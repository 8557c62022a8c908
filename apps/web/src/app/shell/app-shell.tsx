import { clsx } from 'clsx';
import { type ReactNode, useEffect, useState } from 'react';
import { isRouteErrorResponse, Link, Outlet, useLocation, useMatches, useRouteError } from 'react-router';
import { UnknownAccountActionError } from '../../features/auth/account-action';
import { ConsentGate } from '../../features/consent/components/consent-gate';
import { AttributionCapture } from '../../features/growth/components/attribution-capture';
import { FeedbackControl } from '../../features/history/components/feedback-control';
import { NotificationsBell } from '../../features/notifications/components/notifications-bell';
import { ChecklistStepNotifier } from '../../features/onboarding/components/checklist-step-notifier';
import { PlayerBar } from '../../features/player/components/player-bar';
import { type AudioPlayerItem, isHistoryItemType } from '../../features/player/player-item';
import { useUser } from '../../features/users/api/get-user';
import { CachedUserCookie } from '../../features/users/components/cached-user-cookie';
import { useAuth } from '../../lib/auth/auth-provider';
import { SessionUpkeep } from '../../lib/auth/session-upkeep';
import { getMinWidthQuery } from '../../lib/breakpoints';
import { shellFrameOf } from '../../lib/nav-groups';
import { mayHaveSession } from '../../lib/session-refresh';
import { useMediaQuery } from '../../lib/use-media-query';
import { Button } from '../../ui/button';
import { Drawer } from '../../ui/drawer';
import { MenuIcon } from '../../ui/icons';
import type { RouteHandle } from '../route-handle';
import { ThemeToggle } from '../theme/theme-toggle';
import { AppSidebar } from './app-sidebar';
import { ParlaMark } from './parla-mark';
import { ShellQueryActions } from './shell-query-actions';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { useDocumentTitle } from './use-document-title';
import { useSidebarCollapsed } from './use-sidebar-collapsed';

/**
 * The bottom player's feedback control: for a generation whose history item exists (not a voice
 * preview nor a transcript's recording), where the server has the `feedback_enabled` feature config (history/voices §4, §6).
 */
function PlayerFeedback({ item }: { item: AudioPlayerItem }) {
  const { data: user } = useUser();
  const rateable = isHistoryItemType(item.type) && item.loaded && item.id !== '';
  if (!rateable || !user?.feature_configs.feedback_enabled) return null;
  return <FeedbackControl key={item.id} historyItemId={item.id} text={item.player.description ?? ''} />;
}

function SkipLink() {
  return (
    <a
      href="#main"
      className="fixed top-3 left-3 z-50 -translate-y-[200%] rounded-lg border border-line bg-surface px-4 py-2 text-sm font-medium text-fg shadow-lg focus:translate-y-0 motion-safe:transition-transform"
    >
      Skip to content
    </a>
  );
}

function Player() {
  return <PlayerBar renderFeedback={(item) => <PlayerFeedback item={item} />} />;
}

/** The marketing frame: skip link, the site header, the main landmark, the footer and the bottom player. */
function SiteFrame({ children }: { children?: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
      <Player />
    </div>
  );
}

/**
 * The app's frame (issue 18): from lg the sidebar on the left, folding to icons (remembered), ending above
 * the bottom player while it shows; below lg a top bar whose menu button opens the sidebar in a drawer
 * (focus trapped, Escape closes, any navigation closes it). The content column holds the main landmark,
 * the footer and the player's spacer, so nothing hides behind the fixed bars.
 */
function AppFrame({ children }: { children?: ReactNode }) {
  const wide = useMediaQuery(getMinWidthQuery('lg'));
  const [collapsed, toggleCollapsed] = useSidebarCollapsed();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  const { status } = useAuth();
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on every page change (back and forward too)
  useEffect(() => setDrawerOpen(false), [pathname]);
  useEffect(() => {
    if (wide) setDrawerOpen(false);
  }, [wide]);

  return (
    <div className="min-h-dvh">
      <SkipLink />
      {wide && (
        <aside
          aria-label="Sidebar"
          className={clsx(
            'fixed top-0 bottom-[var(--parla-player-offset,0px)] left-0 z-30 border-r border-line bg-surface',
            collapsed ? 'w-16' : 'w-64',
          )}
        >
          <AppSidebar collapsed={collapsed} onToggleCollapsed={toggleCollapsed} />
        </aside>
      )}
      <div className={clsx('flex min-h-dvh min-w-0 flex-col', wide && (collapsed ? 'pl-16' : 'pl-64'))}>
        {!wide && (
          <header className="sticky top-0 z-40 border-b border-line bg-bg/85 backdrop-blur supports-backdrop-filter:bg-bg/70">
            <div className="flex h-14 items-center gap-2 px-3 sm:px-4">
              <Drawer
                open={drawerOpen}
                onOpenChange={setDrawerOpen}
                title="Menu"
                trigger={
                  <Button variant="ghost" size="icon" aria-label="Menu">
                    <MenuIcon />
                  </Button>
                }
              >
                <AppSidebar collapsed={false} onNavigate={() => setDrawerOpen(false)} />
              </Drawer>
              <Link
                to="/app/home"
                className="flex min-w-0 items-center gap-2 rounded-md text-base font-semibold tracking-tight"
                aria-label="Parla, home"
              >
                <ParlaMark />
                <span>Parla</span>
              </Link>
              <span className="flex-1" />
              {status === 'signedIn' && <NotificationsBell />}
              <ThemeToggle />
            </div>
          </header>
        )}
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">
          {children}
        </main>
        <SiteFooter />
        <Player />
      </div>
    </div>
  );
}

/** The frame of the page at hand: the app's sidebar or the marketing header (nav-groups shellFrameOf). */
function ShellFrame({ children }: { children?: ReactNode }) {
  const matches = useMatches();
  const { pathname } = useLocation();
  const handle = [...matches].reverse().find((match) => isRouteHandle(match.handle))?.handle as
    | RouteHandle
    | undefined;
  const { status } = useAuth();
  // A visitor: signed out, or not known yet in a browser that holds no sign-in (no flash of the sidebar).
  const visitor = status === 'signedOut' || (status === 'unknown' && !mayHaveSession());
  const kind = shellFrameOf(handle?.section, pathname, visitor);
  return kind === 'app' ? <AppFrame>{children}</AppFrame> : <SiteFrame>{children}</SiteFrame>;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as RouteHandle).title === 'string';
}

/** The root layout: the frame around the matched page. */
export function AppShell() {
  useDocumentTitle();
  return (
    <ShellFrame>
      <ShellQueryActions />
      <AttributionCapture />
      <SessionUpkeep />
      <ChecklistStepNotifier />
      <ConsentGate />
      <CachedUserCookie />
      <Outlet />
    </ShellFrame>
  );
}

/** Shown while the first page's file loads: the frame with an empty main, so nothing jumps. */
export function ShellFallback() {
  return <ShellFrame />;
}

/** Shown when a page fails to render or its file fails to load (often a new deploy): offers a reload. */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : undefined;
  if (error instanceof UnknownAccountActionError) {
    return (
      <ShellFrame>
        <div className="mx-auto flex max-w-xl flex-col items-start gap-4 px-4 py-24 sm:px-6">
          <p className="text-sm font-medium text-danger">Error</p>
          <h1 className="text-3xl font-semibold tracking-tight">This link doesn't work</h1>
          <p className="text-fg-muted">
            {error.message} Check that you opened the whole link from the email, or ask for a new one.
          </p>
          <Button asChild>
            <a href="/">Go to Parla</a>
          </Button>
        </div>
      </ShellFrame>
    );
  }
  return (
    <ShellFrame>
      <div className="mx-auto flex max-w-xl flex-col items-start gap-4 px-4 py-24 sm:px-6">
        <p className="text-sm font-medium text-danger">Error{detail ? ` · ${detail}` : ''}</p>
        <h1 className="text-3xl font-semibold tracking-tight">Something went wrong</h1>
        <p className="text-fg-muted">
          This page could not be shown. Reloading usually helps, for example after Parla was updated.
        </p>
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
      </div>
    </ShellFrame>
  );
}
