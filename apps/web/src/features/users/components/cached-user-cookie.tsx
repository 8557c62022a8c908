import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuth } from '../../../app/auth/auth-provider';
import { getUserQueryOptions } from '../api/get-user';
import { saveCachedUser, toCachedUser } from '../cached-user';

/**
 * Keeps the cached user cookie (accounts §3) in step with the signed-in user's document: written when it
 * arrives and again when it changes (another workspace, a CCPA opt-out, a new email). Renders nothing.
 */
export function CachedUserCookie() {
  const { status } = useAuth();
  const { data: user } = useQuery({ ...getUserQueryOptions(), enabled: status === 'signedIn' });
  // One string for the effect's dependency: a refetch with the same fields writes nothing.
  const cached = user && status === 'signedIn' ? JSON.stringify(toCachedUser(user)) : undefined;
  useEffect(() => {
    if (cached) saveCachedUser(JSON.parse(cached));
  }, [cached]);
  return null;
}
