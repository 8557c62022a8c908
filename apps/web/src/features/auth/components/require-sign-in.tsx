import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '../../../lib/auth/auth-provider';
import { Skeleton } from '../../../ui/skeleton';

/** Shows its page only when signed in; sends others to sign-in with a redirect back here. */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'signedOut') {
    const redirect = `${location.pathname}${location.search}`;
    return <Navigate to={`/app/sign-in?redirect=${encodeURIComponent(redirect)}`} replace />;
  }
  if (status === 'unknown') {
    return (
      <div className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-12 sm:px-6" aria-busy="true">
        <Skeleton className="h-8 w-48" />
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  return <>{children}</>;
}
