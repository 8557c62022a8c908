import type { QueryClient } from '@tanstack/react-query';

/** The query keys of the speech-to-text page, under `['speech-to-text']`. */
export const transcriptQueryKeys = {
  all: ['speech-to-text'] as const,
  list: (search: string) => ['speech-to-text', 'list', { search }] as const,
  lists: ['speech-to-text', 'list'] as const,
  details: (id: string) => ['speech-to-text', 'details', id] as const,
  transcript: (id: string) => ['speech-to-text', 'transcript', id] as const,
};

/** After a change to a transcript: the lists and its details load again. */
export function invalidateTranscripts(queryClient: QueryClient, id?: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: transcriptQueryKeys.lists }),
    id ? queryClient.invalidateQueries({ queryKey: transcriptQueryKeys.details(id) }) : undefined,
  ]).then(() => undefined);
}
