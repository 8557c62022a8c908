import { clsx } from 'clsx';
import { Link } from 'react-router';

const footerLinks: ReadonlyArray<{ label: string; href: string }> = [
  { label: 'API reference', href: '/docs' },
  { label: 'OpenAPI', href: '/openapi.json' },
  // The server's page of Parla's licence and the third-party notices (issue 18 item 9).
  { label: 'Licences', href: '/licenses' },
];

/** The footer of every page: what Parla is, and the server's own pages (plain links: not app routes), and the app's About the models page. */
export function SiteFooter({ className }: { className?: string }) {
  return (
    <footer className={clsx('border-t border-line', className)}>
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-sm text-fg-muted sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>Parla · self-hosted voice and audio AI</p>
        <ul className="flex flex-wrap gap-x-4 gap-y-1">
          <li>
            <Link className="rounded-sm hover:text-fg" to="/app/about/models">
              About the models
            </Link>
          </li>
          {footerLinks.map((link) => (
            <li key={link.href}>
              <a className="rounded-sm hover:text-fg" href={link.href}>
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  );
}
