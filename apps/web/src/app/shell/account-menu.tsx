import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth/auth-provider';
import { getButtonClasses } from '../../ui/button';
import { ChevronsUpDownIcon } from '../../ui/icons';
import { InitialAvatar } from '../../ui/initial-avatar';

const itemClass =
  'flex h-9 cursor-pointer items-center rounded-md px-2 text-sm outline-none select-none data-disabled:cursor-default data-disabled:opacity-60 data-highlighted:bg-subtle';

/** The account menu's pages, in order (issue 18: settings, subscription, usage, API keys, workspace). */
export const accountMenuLinks: ReadonlyArray<{ label: string; to: string }> = [
  { label: 'Settings', to: '/app/settings' },
  { label: 'Subscription', to: '/app/subscription' },
  { label: 'Usage', to: '/app/developers/usage' },
  { label: 'API keys', to: '/app/developers/api-keys' },
  { label: 'Workspace', to: '/app/workspace' },
];

export interface AccountMenuProps {
  /**
   * `sidebar`: a row with the avatar, name and email at the sidebar's foot (`collapsed`: the avatar
   * alone); `icon`: the avatar alone, at the end of the marketing header.
   */
  variant?: 'sidebar' | 'icon';
  collapsed?: boolean;
}

/**
 * The signed-in user's menu: who is signed in, their settings, subscription, usage, API keys and
 * workspace, and sign-out. The sign-out item is disabled while a sign-out runs (its 1 s delay, accounts §4).
 */
export function AccountMenu({ variant = 'icon', collapsed = false }: AccountMenuProps) {
  const { user, signingOut, signOut } = useAuth();
  const name = user?.first_name || user?.email || 'Account';
  const row = variant === 'sidebar' && !collapsed;
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        aria-label="Account"
        title={row ? undefined : name}
        className={clsx(
          row
            ? 'flex h-12 w-full min-w-0 cursor-pointer items-center gap-2.5 rounded-lg px-2 text-left transition-colors hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=open]:bg-subtle'
            : getButtonClasses('ghost', 'icon'),
        )}
      >
        <InitialAvatar name={name} className="size-7 text-xs" />
        {row && (
          <>
            <span className="flex min-w-0 flex-1 flex-col">
              <span className="truncate text-sm font-medium text-fg">{user?.first_name || 'Account'}</span>
              {user?.email && <span className="truncate text-xs text-fg-muted">{user.email}</span>}
            </span>
            <ChevronsUpDownIcon className="shrink-0 text-fg-muted" />
          </>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align={variant === 'sidebar' ? 'start' : 'end'}
          side={variant === 'sidebar' ? (collapsed ? 'right' : 'top') : 'bottom'}
          sideOffset={8}
          collisionPadding={8}
          className="z-50 w-64 max-w-[calc(100vw-2rem)] rounded-lg border border-line bg-surface p-1 text-fg shadow-lg dark:shadow-black/40"
        >
          {user && (
            <DropdownMenu.Label className="border-b border-line px-2 pt-1.5 pb-2.5 mb-1">
              {user.first_name && <span className="block text-sm font-medium">{user.first_name}</span>}
              <span className="block truncate text-sm text-fg-muted">{user.email}</span>
            </DropdownMenu.Label>
          )}
          {/* Links, so they open in a new tab and read as links; the menu closes when one is followed. */}
          {accountMenuLinks.map((link) => (
            <DropdownMenu.Item key={link.to} className={itemClass} asChild>
              <Link to={link.to}>{link.label}</Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-line" />
          <DropdownMenu.Item
            className={itemClass}
            disabled={signingOut}
            onSelect={() => {
              if (!signingOut) void signOut();
            }}
          >
            {signingOut ? 'Signing out…' : 'Sign out'}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
