/**
 * The file name a Content-Disposition header gives (`filename*=UTF-8''…` before `filename="…"`), or
 * undefined when it names none.
 */
export function readContentDispositionFileName(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:[\w-]+)?'[^']*'([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1];
  if (quoted !== undefined) return quoted.replace(/\\(.)/g, '$1') || undefined;
  const token = /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
  return token || undefined;
}
