/*
 * Each web test file starts with no cookies and empty storage. The `web` project shares one jsdom per
 * worker between files (vitest.config.ts, isolate: false), so what one file left behind would otherwise
 * be seen by the next: a setup file runs before every file.
 */
for (const name of document.cookie.split(';').map((cookie) => cookie.split('=')[0]?.trim())) {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API; these are set this way.
  if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
}
localStorage.clear();
sessionStorage.clear();
