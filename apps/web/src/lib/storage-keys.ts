/**
 * Every localStorage key the app writes starts with this prefix; sign-out clears them, the theme aside
 * (accounts §9, §4).
 */
export const appStoragePrefix = 'xi:';

/**
 * All localStorage keys of the app in one place (accounts §9 "local keys prefixed xi:"). Add a key here,
 * never as a string literal at the call site. The pre-paint script in index.html repeats `theme`.
 */
export const storageKeys = {
  /** The chosen colour theme, `light` or `dark` (accounts §4 theme); a device preference that sign-out keeps. */
  theme: 'xi:theme',
  /**
   * Set while this browser holds a sign-in (the refresh cookie is httpOnly, so script cannot see it); lets a
   * page load skip the refresh call when nobody is signed in. Sign-out removes it with the other xi: keys.
   */
  hasSession: 'xi:has-session',
  /** The app sidebar folded to its icons on wide screens (`1`), or absent when it shows its labels. */
  sidebarCollapsed: 'xi:sidebar-collapsed',
  /** When the user last did something in any tab (ms since epoch), for the inactivity sign-out. */
  lastActivity: 'xi:last-activity',
  /** accounts §4: the verified sensitive-action code, removed after use or a failed verification. */
  sensitiveActionCode: 'xi:verification-code',
  /** history/voices §9: the model last chosen on the text-to-speech page. */
  selectedModel: 'xi:selected-model',
  /** history/voices §9: the voice last chosen on the text-to-speech page. */
  selectedVoice: 'xi:selected-voice',
  /**
   * The text typed on the text-to-speech page, kept across reloads: JSON `{user_id, text}`, read back only
   * by the same user (issue 18 item 8); sign-out removes it with the other xi: keys.
   */
  ttsDraft: 'xi:tts-draft',
  /** history/voices §3, §9: the text-to-dialogue editor's lines, JSON `[{text, voice_id}]`. */
  dialogue: 'xi:dialogue',
  /** accounts §9: the pricing cards' monthly/yearly selection (`monthly` or `yearly`). */
  billingPeriod: 'xi:billing-period',
  /** accounts §3, §4: the validated promo as JSON `{promocode, amount_off, percent_off, duration_in_months}`. */
  promo: 'xi:promo',
  /**
   * accounts §9 "local storage also holds the invite code": the code of a mailed invitation opened while
   * signed out, kept through sign-up, email verification and sign-in until it is answered (issue 18).
   */
  inviteCode: 'xi:invite-code',
  /** accounts §4: the promo code whose dialog was dismissed (the floating banner shows instead). */
  promoDismissed: 'xi:promo-dismissed',
} as const satisfies Record<string, `${typeof appStoragePrefix}${string}`>;

export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

/** Removes a key; a storage that refuses is ignored. */
export function removeStorage(key: StorageKey, storage: Storage | undefined = safeLocalStorage()): void {
  try {
    storage?.removeItem(key);
  } catch {
    // Nothing stored that can be removed.
  }
}

/** Reads a key, answering null when storage is unavailable (private mode, blocked cookies). */
export function readStorage(
  key: StorageKey,
  storage: Storage | undefined = safeLocalStorage(),
): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Writes a key; a storage that refuses (quota, private mode) is ignored because every value has a default. */
export function writeStorage(
  key: StorageKey,
  value: string,
  storage: Storage | undefined = safeLocalStorage(),
): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // The value lives on in memory for this page; nothing else to do.
  }
}

/**
 * Removes every key with the app prefix except those in `keep` (accounts §4 sign-out) and returns the keys
 * removed.
 */
export function clearAppStorage(
  keep: readonly StorageKey[] = [],
  storage: Storage | undefined = safeLocalStorage(),
): string[] {
  if (!storage) return [];
  const kept = new Set<string>(keep);
  const keys: string[] = [];
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(appStoragePrefix) && !kept.has(key)) keys.push(key);
    }
    for (const key of keys) storage.removeItem(key);
  } catch {
    return [];
  }
  return keys;
}

/** The page's localStorage, or undefined where reading it throws (sandboxed frames, blocked storage). */
export function safeLocalStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}
