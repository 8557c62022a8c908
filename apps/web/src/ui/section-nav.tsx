import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

/**
 * The links between the pages of one section; the current one is marked for assistive technology too.
 * They wrap onto a second row where they do not fit (issue 26 item 7: on a phone the voice pages' strip
 * scrolled sideways with its last tabs cut off and nothing to say they were there).
 */
export function SectionNav({
  label,
  links,
}: {
  label: string;
  links: ReadonlyArray<{ path: string; label: string }>;
}) {
  const { pathname } = useLocation();
  return (
    <nav aria-label={label}>
      <ul className="flex w-fit max-w-full flex-wrap gap-1 rounded-lg border border-line bg-subtle p-1">
        {links.map((page) => {
          const current = pathname === page.path;
          return (
            <li key={page.path}>
              <Link
                to={page.path}
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

/** The top of a section's page: its title, a line about it, actions on the right and the section's links. */
export function SectionPageHeader({
  title,
  description,
  actions,
  nav,
}: {
  title: string;
  description: ReactNode;
  actions?: ReactNode;
  nav: ReactNode;
}) {
  return (
    <header className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 max-w-2xl flex-[1_1_20rem] flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          <div className="text-sm text-fg-muted">{description}</div>
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {nav}
    </header>
  );
}
