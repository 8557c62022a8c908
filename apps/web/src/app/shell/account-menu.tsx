import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { getButtonClasses } from '../../ui/button';
import { InitialAvatar } from '../../ui/initial-avatar';
import { useAuth } from '../auth/auth-provider';

const itemClass =
  'flex h-9 cursor-pointer items-center rounded-md px-2 text-sm outline-none select-none data-disabled:cursor-default data-disabled:opacity-60 data-highlighted:bg-subtle';

/**
 * The signed-in user's menu at the header's end, on every screen size: who is signed in, the settings and
 * sign-out. The sign-out item is disabled while a sign-out runs (its 1 s delay, accounts §4).
 */
export function AccountMenu() {
  const { user, signingOut, signOut } = useAuth();
  const name = user?.first_name || user?.email || 'Account';
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger aria-label="Account" className={clsx(getButtonClasses('ghost', 'icon'))}>
        <InitialAvatar name={name} className="size-7 text-xs" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 w-64 max-w-[calc(100vw-2rem)] rounded-lg border border-line bg-surface p-1 text-fg shadow-lg dark:shadow-black/40"
        >
          {user && (
            <DropdownMenu.Label className="border-b border-line px-2 pt-1.5 pb-2.5 mb-1">
              {user.first_name && <span className="block text-sm font-medium">{user.first_name}</span>}
              <span className="block truncate text-sm text-fg-muted">{user.email}</span>
            </DropdownMenu.Label>
          )}
          {/* Links, so they open in a new tab and read as links; the menu closes when one is followed. */}
          <DropdownMenu.Item className={itemClass} asChild>
            <Link to="/app/settings">Settings</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item className={itemClass} asChild>
            <Link to="/app/subscription">Subscription</Link>
          </DropdownMenu.Item>
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
