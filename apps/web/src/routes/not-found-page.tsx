import { Link } from 'react-router';
import { getButtonClasses } from '../ui/button';

/** Every path without a built page, the unbuilt /app pages included. */
export default function NotFoundPage() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-start gap-4 px-4 py-24 sm:px-6">
      <p className="text-sm font-medium text-fg-muted tabular-nums">404</p>
      <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Page not found</h1>
      <p className="text-fg-muted">
        There is no page at this address. Check the link, or start again from home.
      </p>
      <Link to="/" className={getButtonClasses('primary', 'md')}>
        Go home
      </Link>
    </div>
  );
}
