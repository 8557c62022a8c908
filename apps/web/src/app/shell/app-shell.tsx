import type { ReactNode } from 'react';
import { isRouteErrorResponse, Link, Outlet, useRouteError } from 'react-router';
import { UnknownAccountActionError } from '../../features/auth/account-action';
import { ConsentGate } from '../../features/consent/components/consent-gate';
import { AttributionCapture } from '../../features/growth/components/attribution-capture';
import { FeedbackControl } from '../../features/history/components/feedback-control';
import { ChecklistStepNotifier } from '../../features/onboarding/components/checklist-step-notifier';
import { PlayerBar } from '../../features/player/components/player-bar';
import type { AudioPlayerItem } from '../../features/player/player-item';
import { useUser } from '../../features/users/api/get-user';
import { CachedUserCookie } from '../../features/users/components/cached-user-cookie';
import { Button } from '../../ui/button';
import { SessionUpkeep } from '../auth/session-upkeep';
import { ShellQueryActions } from './shell-query-actions';
import { SiteHeader } from './site-header';
import { useDocumentTitle } from './use-document-title';

/**
 * The bottom player's feedback control: for a generation whose history item exists (not a voice
 * preview), where the server has the `feedback_enabled` feature config (history/voices §4, §6).
 */
function PlayerFeedback({ item }: { item: AudioPlayerItem }) {
  const { data: user } = useUser();
  const rateable = item.type !== 'voicePreview' && item.loaded && item.id !== '';
  if (!rateable || !user?.feature_configs.feedback_enabled) return null;
  return <FeedbackControl key={item.id} historyItemId={item.id} text={item.player.description ?? ''} />;
}

/** The frame of every page: skip link, header, the main landmark, the footer and the bottom player. */
function ShellFrame({ children }: { children?: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="fixed top-3 left-3 z-50 -translate-y-[200%] rounded-lg border border-line bg-surface px-4 py-2 text-sm font-medium text-fg shadow-lg focus:translate-y-0 motion-safe:transition-transform"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <footer className="border-t border-line">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-sm text-fg-muted sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>Parla · self-hosted voice and audio AI</p>
          <ul className="flex flex-wrap gap-x-4 gap-y-1">
            <li>
              <Link className="rounded-sm hover:text-fg" to="/app/about/models">
                About the models
              </Link>
            </li>
            <li>
              <a className="rounded-sm hover:text-fg" href="/docs">
                API reference
              </a>
            </li>
            <li>
              <a className="rounded-sm hover:text-fg" href="/openapi.json">
                OpenAPI
              </a>
            </li>
          </ul>
        </div>
      </footer>
      <PlayerBar renderFeedback={(item) => <PlayerFeedback item={item} />} />
    </div>
  );
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
