import { clsx } from 'clsx';
import { Link, useLocation } from 'react-router';
import { CreditMeter } from '../../features/billing/components/credit-meter';
import { NotificationsBell } from '../../features/notifications/components/notifications-bell';
import { useUserWorkspaces } from '../../features/workspace/api/list-user-workspaces';
import { WorkspaceSwitcher } from '../../features/workspace/components/workspace-switcher';
import type { RouteEntry } from '../../lib/app-paths';
import { useAuth } from '../../lib/auth/auth-provider';
import { findActiveNavPath, listSidebarGroups } from '../../lib/nav-groups';
import { Button } from '../../ui/button';
import { SidebarIcon } from '../../ui/icons';
import { hueFromName } from '../../ui/initial-avatar';
import { navIconOf } from '../../ui/nav-icons';
import { Tooltip } from '../../ui/tooltip';
import { ThemeToggle } from '../theme/theme-toggle';
import { AccountMenu } from './account-menu';
import { ParlaMark } from './parla-mark';

export interface AppSidebarProps {
  /** Folded to icons (wide screens only; the drawer always shows the labels). */
  collapsed: boolean;
  /** Folds or unfolds it; absent in the drawer, which closes instead. */
  onToggleCollapsed?: () => void;
  /** Called when a link is followed (the drawer closes). */
  onNavigate?: () => void;
}

function NavItem({
  entry,
  active,
  collapsed,
  onNavigate,
}: {
  entry: RouteEntry;
  active: boolean;
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const Icon = navIconOf(entry.path);
  const link = (
    <Link
      to={entry.path}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      className={clsx(
        'flex h-9 min-w-0 items-center gap-3 rounded-lg text-sm font-medium transition-colors',
        collapsed ? 'w-10 justify-center' : 'px-2.5',
        active ? 'bg-subtle text-fg' : 'text-fg-muted hover:bg-subtle hover:text-fg',
      )}
    >
      <Icon className="shrink-0 text-lg" />
      <span className={collapsed ? 'sr-only' : 'truncate'}>{entry.title}</span>
    </Link>
  );
  return collapsed ? (
    <Tooltip side="right" content={entry.title}>
      {link}
    </Tooltip>
  ) : (
    link
  );
}

/** A workspace's initial on a square coloured from its name (the avatars of people are round). */
function WorkspaceMark({ name }: { name: string }) {
  const hue = hueFromName(name);
  return (
    <span
      aria-hidden="true"
      className="flex size-7 shrink-0 items-center justify-center rounded-md text-xs font-semibold text-white"
      style={{ background: `linear-gradient(135deg, hsl(${hue} 65% 50%), hsl(${(hue + 50) % 360} 70% 40%))` }}
    >
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** The workspace at the sidebar's foot: the switcher for members of several, the name for one. */
function SidebarWorkspace({ collapsed, onExpand }: { collapsed: boolean; onExpand?: () => void }) {
  const workspaces = useUserWorkspaces();
  const list = workspaces.data;
  const current = list?.find((w) => w.is_current) ?? list?.[0];
  if (!current) return null;
  if (collapsed) {
    const label =
      list && list.length > 1
        ? `Workspace: ${current.name}. Show the sidebar to switch`
        : `Workspace: ${current.name}`;
    return (
      <Tooltip side="right" content={label}>
        {onExpand && list && list.length > 1 ? (
          <button
            type="button"
            aria-label={label}
            onClick={onExpand}
            className="flex size-10 cursor-pointer items-center justify-center rounded-lg hover:bg-subtle focus-visible:outline-2 focus-visible:outline-ring"
          >
            <WorkspaceMark name={current.name} />
          </button>
        ) : (
          <span className="flex size-10 items-center justify-center">
            <WorkspaceMark name={current.name} />
            <span className="sr-only">{label}</span>
          </span>
        )}
      </Tooltip>
    );
  }
  if (list && list.length > 1) return <WorkspaceSwitcher className="h-9 w-full" />;
  return (
    <p className="flex min-w-0 items-center gap-2 px-1 text-sm">
      <WorkspaceMark name={current.name} />
      <span className="sr-only">Workspace: </span>
      <span className="truncate font-medium">{current.name}</span>
    </p>
  );
}

/**
 * The app's sidebar (issue 18): the product areas of lib/app-paths.ts in groups (only built pages, so
 * nothing unbuilt shows), the current page marked with aria-current, and at its foot the workspace, the
 * credits of this period and the account menu. On wide screens it folds to icons; below lg it fills the
 * drawer.
 */
export function AppSidebar({ collapsed, onToggleCollapsed, onNavigate }: AppSidebarProps) {
  const { pathname } = useLocation();
  const { status } = useAuth();
  const groups = listSidebarGroups();
  const active = findActiveNavPath(
    pathname,
    groups.flatMap((group) => group.entries.map((entry) => entry.path)),
  );
  const signedIn = status === 'signedIn';

  return (
    <div className={clsx('flex h-full min-h-0 flex-col', collapsed ? 'items-center' : '')}>
      <div
        className={clsx(
          'flex shrink-0 gap-1',
          collapsed ? 'flex-col items-center py-3' : 'h-14 items-center px-3',
        )}
      >
        <Link
          to="/app/home"
          onClick={onNavigate}
          className="flex min-w-0 items-center gap-2 rounded-md px-1 text-base font-semibold tracking-tight"
          aria-label="Parla, home"
        >
          <ParlaMark />
          {!collapsed && <span>Parla</span>}
        </Link>
        {!collapsed && <span className="flex-1" />}
        {signedIn && <NotificationsBell />}
        {onToggleCollapsed ? (
          <Tooltip side={collapsed ? 'right' : 'bottom'} content={collapsed ? 'Show labels' : 'Icons only'}>
            <Button
              variant="ghost"
              size="icon"
              aria-label="Collapse sidebar"
              aria-pressed={collapsed}
              onClick={onToggleCollapsed}
            >
              <SidebarIcon />
            </Button>
          </Tooltip>
        ) : (
          // The drawer's × sits here.
          <span aria-hidden="true" className="w-9 shrink-0" />
        )}
      </div>

      <nav
        aria-label="Main"
        className={clsx('min-h-0 flex-1 overflow-y-auto pb-3', collapsed ? 'px-3' : 'w-full px-3')}
      >
        {groups.map((group) => (
          <div key={group.section} className="mt-3 first:mt-1">
            {group.label &&
              (collapsed ? (
                <hr className="mx-auto mb-3 w-6 border-line" />
              ) : (
                <h2 className="mb-1 px-2.5 text-xs font-medium text-fg-muted">{group.label}</h2>
              ))}
            <ul className="flex flex-col gap-0.5">
              {group.entries.map((entry) => (
                <li key={entry.path}>
                  <NavItem
                    entry={entry}
                    active={entry.path === active}
                    collapsed={collapsed}
                    onNavigate={onNavigate}
                  />
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>

      <div
        className={clsx(
          'flex shrink-0 flex-col gap-3 border-t border-line py-3',
          collapsed ? 'items-center px-2' : 'w-full px-3',
        )}
      >
        {signedIn ? (
          <>
            <SidebarWorkspace collapsed={collapsed} onExpand={onToggleCollapsed} />
            <CreditMeter collapsed={collapsed} className={collapsed ? undefined : 'px-1'} />
            <div className={clsx('flex gap-1', collapsed ? 'flex-col-reverse items-center' : 'items-center')}>
              <div className="min-w-0 flex-1">
                <AccountMenu variant="sidebar" collapsed={collapsed} />
              </div>
              <ThemeToggle />
            </div>
          </>
        ) : (
          <div className={clsx('flex gap-2', collapsed ? 'flex-col items-center' : 'items-center')}>
            {!collapsed && (
              <>
                <Button variant="secondary" size="sm" className="flex-1" asChild>
                  <Link to="/app/sign-in" onClick={onNavigate}>
                    Sign in
                  </Link>
                </Button>
                <Button size="sm" className="flex-1" asChild>
                  <Link to="/app/sign-up" onClick={onNavigate}>
                    Sign up
                  </Link>
                </Button>
              </>
            )}
            <ThemeToggle />
          </div>
        )}
      </div>
    </div>
  );
}
