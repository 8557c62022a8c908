import { clsx } from 'clsx';
import { Link, NavLink } from 'react-router';
import { NotificationsBell } from '../../features/notifications/components/notifications-bell';
import { WorkspaceSwitcher } from '../../features/workspace/components/workspace-switcher';
import { Button } from '../../ui/button';
import { useAuth } from '../auth/auth-provider';
import { listNavEntries } from '../route-table';
import { ThemeToggle } from '../theme/theme-toggle';

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

/**
 * The header: wordmark, the navigation of built pages, the theme toggle and, when signed in, the
 * workspace switcher (for members of several workspaces), the notifications bell and sign-out.
 */
export function SiteHeader() {
  const navEntries = listNavEntries();
  const { status, user, signingOut, signOut } = useAuth();
  return (
    <header className="sticky top-0 z-40 border-b border-line bg-bg/85 backdrop-blur supports-backdrop-filter:bg-bg/70">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-6 px-4 sm:px-6">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md text-base font-semibold tracking-tight"
          aria-label="Parla, home"
        >
          <ParlaMark />
          <span>Parla</span>
        </Link>
        <nav aria-label="Main" className="min-w-0 flex-1">
          <ul className="-m-1 flex items-center gap-1 overflow-x-auto p-1">
            {navEntries.map((entry) => (
              <li key={entry.path}>
                <NavLink
                  to={entry.path}
                  end
                  className={({ isActive }) =>
                    clsx(
                      'inline-flex h-8 items-center rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors',
                      isActive ? 'bg-subtle text-fg' : 'text-fg-muted hover:bg-subtle hover:text-fg',
                    )
                  }
                >
                  {entry.title}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          {status === 'signedOut' && (
            <>
              <Button variant="ghost" size="sm" asChild>
                <Link to="/app/sign-in">Sign in</Link>
              </Button>
              <Button size="sm" asChild>
                <Link to="/app/sign-up">Sign up</Link>
              </Button>
            </>
          )}
          {status === 'signedIn' && (
            <>
              <WorkspaceSwitcher />
              <NotificationsBell />
              <Button variant="ghost" size="sm" asChild>
                <Link to="/app/settings">Settings</Link>
              </Button>
              {user?.first_name && (
                <span className="hidden text-sm text-fg-muted sm:inline">{user.first_name}</span>
              )}
              {/* aria-disabled, not disabled: the button keeps its focus while the sign-out runs. */}
              <Button
                variant="secondary"
                size="sm"
                aria-disabled={signingOut}
                onClick={signingOut ? undefined : () => void signOut()}
              >
                Sign out
              </Button>
            </>
          )}
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}
