import { useEffect } from 'react';
import { refreshAccessToken } from '../session-refresh';
import { readStorage, storageKeys, writeStorage } from '../storage-keys';
import { useToast } from '../toasts/use-toast';
import { useAuth } from './auth-provider';

/** accounts §4: the access token of a verified-email user refreshes every 5 minutes. */
export const tokenRefreshIntervalMs = 5 * 60_000;

/** What counts as user activity for the inactivity timer. */
export const activityEvents = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/** "5 minutes", "1 hour", "90 seconds": the timeout in words for the sign-out toast. */
export function describeTimeout(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

/**
 * Keeps a sign-in alive and bounded (accounts §4): refreshes the access token every 5 minutes for a
 * verified-email user (other users refresh when a call meets an expired token), and signs out after
 * `session_inactivity_timeout` seconds without activity in any tab, saying why.
 */
export function SessionUpkeep() {
  const { status, user, signOut } = useAuth();
  const { toast } = useToast();
  const verified = status === 'signedIn' && user?.email_verified === true;
  const timeout = status === 'signedIn' ? (user?.session_inactivity_timeout ?? null) : null;

  useEffect(() => {
    if (!verified) return;
    const timer = setInterval(() => {
      refreshAccessToken().catch(() => undefined);
    }, tokenRefreshIntervalMs);
    return () => clearInterval(timer);
  }, [verified]);

  useEffect(() => {
    if (!timeout || timeout <= 0) return;
    const limitMs = timeout * 1000;
    let timer: ReturnType<typeof setTimeout>;
    let lastWrite = 0;
    // Activity in any tab counts: it is shared through local storage, so an idle background tab does not
    // sign out someone who works in another one.
    const lastActivity = () => Math.max(lastWrite, Number(readStorage(storageKeys.lastActivity)) || 0);
    const check = () => {
      const idleMs = Date.now() - lastActivity();
      if (idleMs < limitMs) {
        timer = setTimeout(check, limitMs - idleMs);
        return;
      }
      toast({
        title: 'You were signed out',
        description: `There was no activity for ${describeTimeout(timeout)}, the limit your workspace sets. Sign in again to continue.`,
      });
      void signOut();
    };
    const noteActivity = () => {
      const now = Date.now();
      if (now - lastWrite < 1000) return; // at most one write a second
      lastWrite = now;
      writeStorage(storageKeys.lastActivity, String(now));
    };
    noteActivity();
    timer = setTimeout(check, limitMs);
    for (const name of activityEvents) {
      window.addEventListener(name, noteActivity, { passive: true, capture: true });
    }
    return () => {
      clearTimeout(timer);
      for (const name of activityEvents) window.removeEventListener(name, noteActivity, { capture: true });
    };
  }, [timeout, signOut, toast]);

  return null;
}
