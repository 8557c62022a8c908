/**
 * The items of a paged list's pages, each once, in page order: a page fetched after rows were added or
 * removed on the server can repeat an item of the page before it.
 */
export function collectPageItems<P, T>(
  pages: readonly P[] | undefined,
  itemsOf: (page: P) => readonly T[],
  keyOf: (item: T) => string,
): T[] {
  const seen = new Map<string, T>();
  for (const page of pages ?? [])
    for (const item of itemsOf(page)) {
      const key = keyOf(item);
      if (!seen.has(key)) seen.set(key, item);
    }
  return [...seen.values()];
}
