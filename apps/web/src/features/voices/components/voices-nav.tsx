import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

/**
 * The voice pages (history/voices §2), in the order the sub-navigation shows them. The collections have a
 * path under the voice lab and one under the library (`libraryPath`): from the library, the link stays there.
 */
const voicePages: ReadonlyArray<{ path: string; label: string; libraryPath?: string }> = [
  { path: '/app/voice-lab', label: 'Voice lab' },
  { path: '/app/voice-library', label: 'Voice library' },
  { path: '/app/voice-lab/collections', label: 'Collections', libraryPath: '/app/voice-library/collections' },
  { path: '/app/default-voices', label: 'Default voices' },
  { path: '/app/workspace-voices', label: 'Workspace voices' },
];

/** The links between the voice pages; the current one is marked for assistive technology too. */
export function VoicesNav() {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Voices" className="-mx-1 overflow-x-auto px-1">
      <ul className="flex w-max gap-1 rounded-lg border border-line bg-subtle p-1">
        {voicePages.map((page) => {
          const fromLibrary = pathname.startsWith('/app/voice-library');
          const path = (fromLibrary && page.libraryPath) || page.path;
          const current = pathname === path;
          return (
            <li key={page.path}>
              <Link
                to={path}
                aria-current={current ? 'page' : undefined}
                className={clsx(
                  'block rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap transition-colors',
                  current ? 'bg-surface text-fg shadow-xs' : 'text-fg-muted hover:text-fg',
                )}
              >
                {page.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The top of a voice page: its title, a line about it, actions on the right and the sub-navigation. */
export function VoicesPageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description: string;
  actions?: ReactNode;
}) {
  return (
    <header className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex max-w-2xl flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          <p className="text-sm text-fg-muted">{description}</p>
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      <VoicesNav />
    </header>
  );
}
