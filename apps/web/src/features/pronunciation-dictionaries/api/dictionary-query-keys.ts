import type { QueryClient } from '@tanstack/react-query';

/** Under the current workspace's key (`['workspace']`): switching workspaces or signing out clears them. */
export const dictionaryQueryKeys = {
  all: ['workspace', 'pronunciation-dictionaries'] as const,
  list: (includeArchived: boolean) =>
    ['workspace', 'pronunciation-dictionaries', 'list', { includeArchived }] as const,
  dictionary: (id: string) => ['workspace', 'pronunciation-dictionaries', 'dictionary', id] as const,
  defaults: ['workspace', 'pronunciation-dictionaries', 'defaults'] as const,
};

/** After a dictionary is made or changed: the list, the dictionaries and the defaults load again. */
export function invalidateDictionaries(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: dictionaryQueryKeys.all });
}
