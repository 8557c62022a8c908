import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuth } from '../../../lib/auth/auth-provider';
import { getUserQueryOptions } from '../api/get-user';
import { saveCachedUser, toCachedUser } from '../cached-user';

/**
 * Keeps the cached user cookie (accounts §3) in step with the signed-in user's document: written when it
 * arrives and again when it changes (another workspace, a CCPA opt-out, a new email). Renders nothing.
 */
export function CachedUserCookie() {
  const { status, signingOut } = useAuth();
  // Not while a sign-out runs: it has cleared the cookie, and the signed-in state lasts its 1 s delay
  // (accounts §4); a user document fetched then must not write it back.
  const active = status === 'signedIn' && !signingOut;
  const { data: user } = useQuery({ ...getUserQueryOptions(), enabled: active });
  // One string for the effect's dependency: a refetch with the same fields writes nothing.
  const cached = user && active ? JSON.stringify(toCachedUser(user)) : undefined;
  useEffect(() => {
    if (cached) saveCachedUser(JSON.parse(cached));
  }, [cached]);
  return null;
}
