import { useCallback, useEffect, useRef, useState } from 'react';
import { readStorage, removeStorage, storageKeys, writeStorage } from '../../lib/storage-keys';

/** The draft stored for this user, or '' when there is none, it is another user's or it is unreadable. */
export function parseTextDraft(raw: string | null, userId: string): string {
  if (!raw) return '';
  try {
    const draft: unknown = JSON.parse(raw);
    if (typeof draft !== 'object' || draft === null) return '';
    const { user_id, text } = draft as { user_id?: unknown; text?: unknown };
    return user_id === userId && typeof text === 'string' ? text : '';
  } catch {
    return '';
  }
}

/**
 * The text of the text-to-speech page, kept in local storage as the user types so a reload does not lose
 * it (issue 18 item 8). The draft belongs to the signed-in user: it is restored once their id is known
 * (unless they have typed already), another user's draft is never shown, and emptying the box removes it.
 * Sign-out clears it with the app's other keys (accounts §4).
 */
export function useTextDraft(userId: string | undefined): [string, (text: string) => void] {
  const [text, setText] = useState(() =>
    userId ? parseTextDraft(readStorage(storageKeys.ttsDraft), userId) : '',
  );
  const restoredFor = useRef(userId);
  const typed = useRef(false);
  const latest = useRef(text);
  latest.current = text;

  useEffect(() => {
    if (!userId || restoredFor.current === userId) return;
    restoredFor.current = userId;
    // Typed before the user was known: keep what is in the box, and keep it as their draft.
    if (typed.current) saveDraft(userId, latest.current);
    else setText(parseTextDraft(readStorage(storageKeys.ttsDraft), userId));
  }, [userId]);

  const update = useCallback(
    (next: string) => {
      typed.current = true;
      setText(next);
      if (userId) saveDraft(userId, next);
    },
    [userId],
  );
  return [text, update];
}

function saveDraft(userId: string, text: string): void {
  if (text === '') removeStorage(storageKeys.ttsDraft);
  else writeStorage(storageKeys.ttsDraft, JSON.stringify({ user_id: userId, text }));
}
