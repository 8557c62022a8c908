/** How long a download's object URL lives: long enough for the browser to start the download. */
const revokeAfterMs = 10_000;

/** Starts a download of `href` under `fileName` through a temporary link. */
export function saveUrlAs(href: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves bytes under a file name (the player's Download button, history/voices §4; history downloads). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  saveUrlAs(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), revokeAfterMs);
}
