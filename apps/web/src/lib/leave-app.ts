/**
 * Leaves the single-page app for a URL the server gave (a hosted checkout, the billing portal, a
 * redirect after payment): a full page load, so the page it lands on starts fresh. One function, so
 * tests can watch it instead of jsdom's unmockable `window.location`.
 */
export function leaveAppTo(url: string): void {
  window.location.assign(url);
}
