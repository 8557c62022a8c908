/**
 * The app's readable cookies, in one place: how one is read, written (path `/`, SameSite=Lax, Secure on
 * https) and expired. JSON values go through encodeURIComponent, so a value never breaks the cookie string.
 */

/** The raw value of a cookie of this page, or undefined when it is not set. */
export function readCookie(name: string, doc: Document = document): string | undefined {
  for (const part of doc.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** Sets a cookie for the whole site, kept `maxAgeSeconds` (0 or less expires it). */
export function writeCookie(
  name: string,
  value: string,
  maxAgeSeconds: number,
  doc: Document = document,
): void {
  const secure = doc.location?.protocol === 'https:' ? '; Secure' : '';
  const maxAge = Math.max(0, Math.floor(maxAgeSeconds));
  doc.cookie = `${name}=${value}; max-age=${maxAge}; path=/; SameSite=Lax${secure}`;
}

/** Removes a cookie set with writeCookie. */
export function expireCookie(name: string, doc: Document = document): void {
  writeCookie(name, '', 0, doc);
}

/** Stores a value as URI-encoded JSON. */
export function writeJsonCookie(
  name: string,
  value: unknown,
  maxAgeSeconds: number,
  doc: Document = document,
): void {
  writeCookie(name, encodeURIComponent(JSON.stringify(value)), maxAgeSeconds, doc);
}

/** The parsed JSON of a cookie written with writeJsonCookie; undefined when absent or unreadable. */
export function readJsonCookie(name: string, doc: Document = document): unknown {
  const raw = readCookie(name, doc);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(decodeURIComponent(raw));
  } catch {
    return undefined;
  }
}
