import { clsx } from 'clsx';
import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import type { RouteEntry } from '../../lib/app-paths';
import { useAuth } from '../../lib/auth/auth-provider';
import { getMinWidthQuery } from '../../lib/breakpoints';
import { listSiteNavEntries } from '../../lib/nav-groups';
import { useMediaQuery } from '../../lib/use-media-query';
import { Button } from '../../ui/button';
import { MenuIcon } from '../../ui/icons';
import { Sheet } from '../../ui/sheet';
import { ThemeToggle } from '../theme/theme-toggle';
import { AccountMenu } from './account-menu';
import { ParlaMark } from './parla-mark';

/** Where the marketing pages send a signed-in visitor into the app. */
export const appHomePath = '/app/home';

const navLinkClass = (isActive: boolean) =>
  clsx(
    'inline-flex items-center rounded-md px-2.5 text-sm font-medium whitespace-nowrap transition-colors',
    isActive ? 'bg-subtle text-fg' : 'text-fg-muted hover:bg-subtle hover:text-fg',
  );

/**
 * The site's links below sm, where the header row keeps room only for the wordmark and the main button: a
 * menu button opening a bottom sheet with the links, and sign-in and sign-up or the way into the app.
 * Following a link, any navigation and growing to sm close it.
 */
function MenuSheet({ entries, wide }: { entries: readonly RouteEntry[]; wide: boolean }) {
  const { status } = useAuth();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page changes
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (wide) setOpen(false);
  }, [wide]);
  return (
    <Sheet
      open={open}
      onOpenChange={setOpen}
      title="Menu"
      trigger={
        <Button variant="ghost" size="icon" className="sm:hidden" aria-label="Menu">
          <MenuIcon />
        </Button>
      }
    >
      <nav aria-label="Main">
        <ul className="grid grid-cols-2 gap-1">
          {entries.map((entry) => (
            <li key={entry.path}>
              <NavLink
                to={entry.path}
                end
                onClick={close}
                className={({ isActive }) => clsx(navLinkClass(isActive), 'h-11 w-full')}
              >
                {entry.title}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {status !== 'signedIn' && (
        <div className="flex gap-2 border-t border-line pt-4">
          <Button variant="secondary" size="sm" className="flex-1" asChild>
            <Link to="/app/sign-in" onClick={close}>
              Sign in
            </Link>
          </Button>
          <Button size="sm" className="flex-1" asChild>
            <Link to="/app/sign-up" onClick={close}>
              Sign up
            </Link>
          </Button>
        </div>
      )}
    </Sheet>
  );
}

/**
 * The marketing header, on the site's pages only (the landing page, pricing, share pages, the auth pages):
 * wordmark, the site's links, sign-in and sign-up — or, signed in, the way into the app and the account
 * menu — and the theme toggle. The app's pages have the sidebar instead (AppFrame).
 */
export function SiteHeader() {
  const navEntries = listSiteNavEntries();
  const { status } = useAuth();
  const wide = useMediaQuery(getMinWidthQuery('sm'));
  return (
    <header className="sticky top-0 z-40 border-b border-line bg-bg/85 backdrop-blur supports-backdrop-filter:bg-bg/70">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4 sm:px-6 xl:gap-5">
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 rounded-md text-base font-semibold tracking-tight"
          aria-label="Parla, home"
        >
          <ParlaMark />
          <span>Parla</span>
        </Link>
        <nav aria-label="Main" className="hidden min-w-0 flex-1 sm:block">
          <ul className="-m-1 flex items-center gap-1 overflow-x-auto p-1">
            {navEntries.map((entry) => (
              <li key={entry.path}>
                <NavLink
                  to={entry.path}
                  end
                  className={({ isActive }) => clsx(navLinkClass(isActive), 'h-8')}
                >
                  {entry.title}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-2">
          {/* Sign-in and sign-up show at once, while the session is still being asked about (its answer
              for a visitor comes only after the sign-out delay of accounts §4); the signed-in variant takes
              their place once the session is known (issue 26 item 7). */}
          {status !== 'signedIn' && (
            <>
              <Button variant="ghost" size="sm" className="max-sm:hidden" asChild>
                <Link to="/app/sign-in">Sign in</Link>
              </Button>
              <Button size="sm" asChild>
                <Link to="/app/sign-up">Sign up</Link>
              </Button>
            </>
          )}
          {status === 'signedIn' && (
            <>
              <Button size="sm" asChild>
                <Link to={appHomePath}>Open Parla</Link>
              </Button>
              <span className="max-sm:hidden">
                <AccountMenu />
              </span>
            </>
          )}
          <ThemeToggle />
          <MenuSheet entries={navEntries} wide={wide} />
        </div>
      </div>
    </header>
  );
}
