import { clsx } from 'clsx';
import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { NotificationsBell } from '../../features/notifications/components/notifications-bell';
import { WorkspaceSwitcher } from '../../features/workspace/components/workspace-switcher';
import { getMinWidthQuery } from '../../lib/breakpoints';
import { useMediaQuery } from '../../lib/use-media-query';
import { Button } from '../../ui/button';
import { MenuIcon } from '../../ui/icons';
import { Sheet } from '../../ui/sheet';
import { useAuth } from '../auth/auth-provider';
import { listNavEntries, type RouteEntry } from '../route-table';
import { ThemeToggle } from '../theme/theme-toggle';
import { AccountMenu } from './account-menu';

/** The Parla mark: four bars of a level meter. */
function ParlaMark() {
  return (
    <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" className="fill-fg" />
      <g className="fill-bg">
        <rect x="7" y="13" width="3" height="6" rx="1.5" />
        <rect x="12" y="9" width="3" height="14" rx="1.5" />
        <rect x="17" y="6" width="3" height="20" rx="1.5" />
        <rect x="22" y="11" width="3" height="10" rx="1.5" />
      </g>
    </svg>
  );
}

const navLinkClass = (isActive: boolean) =>
  clsx(
    'inline-flex items-center rounded-md px-2.5 text-sm font-medium whitespace-nowrap transition-colors',
    isActive ? 'bg-subtle text-fg' : 'text-fg-muted hover:bg-subtle hover:text-fg',
  );

/**
 * The navigation below the xl breakpoint (accounts §9 1280 px), where the header row has no room for it: a
 * menu button opening a bottom sheet, which also holds the workspace switcher, or sign-in and sign-up.
 * Following a link closes it.
 */
function MenuSheet({ entries, wide }: { entries: readonly RouteEntry[]; wide: boolean }) {
  const { status } = useAuth();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  // Closed by any navigation (back and forward too) and by growing to xl, where the header shows it all.
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
        <Button variant="ghost" size="icon" className="xl:hidden" aria-label="Menu">
          <MenuIcon />
        </Button>
      }
    >
      {status === 'signedIn' && <WorkspaceSwitcher />}
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
      {status === 'signedOut' && (
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
 * The header: wordmark, the navigation of built pages, the theme toggle and, when signed in, the
 * workspace switcher (for members of several workspaces), the notifications bell and the account menu.
 * Below xl the navigation and the switcher move into the menu (MenuSheet).
 */
export function SiteHeader() {
  const navEntries = listNavEntries();
  const { status } = useAuth();
  // One workspace switcher at a time: in the header from xl, in the menu sheet below.
  const wide = useMediaQuery(getMinWidthQuery('xl'));
  return (
    <header className="sticky top-0 z-40 border-b border-line bg-bg/85 backdrop-blur supports-backdrop-filter:bg-bg/70">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4 sm:px-6 xl:gap-5">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md text-base font-semibold tracking-tight"
          aria-label="Parla, home"
        >
          <ParlaMark />
          <span>Parla</span>
        </Link>
        <nav aria-label="Main" className="hidden min-w-0 flex-1 xl:block">
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
          {status === 'signedOut' && (
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
              {wide && <WorkspaceSwitcher />}
              <NotificationsBell />
              <AccountMenu />
            </>
          )}
          <ThemeToggle />
          <MenuSheet entries={navEntries} wide={wide} />
        </div>
      </div>
    </header>
  );
}
