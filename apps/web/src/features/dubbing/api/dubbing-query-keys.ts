import type { QueryClient } from '@tanstack/react-query';

/** The query keys of the dubbing pages, under `['dubbing']`. */
export const dubbingQueryKeys = {
  all: ['dubbing'] as const,
  lists: ['dubbing', 'list'] as const,
  languages: ['dubbing', 'languages'] as const,
  dub: (id: string) => ['dubbing', 'dub', id] as const,
  resource: (id: string) => ['dubbing', 'resource', id] as const,
  similarVoices: (id: string, speakerId: string) => ['dubbing', 'similar-voices', id, speakerId] as const,
};

/** After a change to a dub: its resource, its metadata and the list load again. */
export function invalidateDub(queryClient: QueryClient, id: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: dubbingQueryKeys.resource(id) }),
    queryClient.invalidateQueries({ queryKey: dubbingQueryKeys.dub(id) }),
    queryClient.invalidateQueries({ queryKey: dubbingQueryKeys.lists }),
  ]).then(() => undefined);
}
