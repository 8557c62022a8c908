import { StudioProgressEvent, studioProgressRoute } from '@parla/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiFetch } from '../../lib/api-client';
import { studioQueryKeys } from './api/studio-api';
import { createSseReader } from './studio-rules';

/**
 * A conversion's live progress (issue 30 item 3): while `active`, reads the project's server-sent events
 * (`GET /v1/studio/projects/{id}/progress`, with fetch: an EventSource cannot send the bearer token) and
 * answers the newest event. When the stream ends (no conversion runs any more) the project, its chapters
 * and snapshots load again, and `onDone` is told.
 */
export function useStudioProgress(
  projectId: string,
  active: boolean,
  onDone?: () => void,
  /** The project's state: a change (a queued conversion starting) opens the stream again. */
  restartKey?: string,
): { event: StudioProgressEvent | null; error: unknown } {
  const queryClient = useQueryClient();
  const [event, setEvent] = useState<StudioProgressEvent | null>(null);
  const [error, setError] = useState<unknown>(null);

  // onDone is read when the stream ends; a new one must not reopen the stream.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above.
  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    setError(null);
    void (async () => {
      try {
        const response = await apiFetch(
          studioProgressRoute,
          { params: { project_id: projectId }, signal: controller.signal },
          'text/event-stream',
        );
        const reader = response.body?.getReader();
        if (!reader) return;
        const decoder = new TextDecoder();
        const read = createSseReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          for (const message of read(decoder.decode(value, { stream: true }))) {
            if (message.event !== 'progress') continue;
            const parsed = StudioProgressEvent.safeParse(JSON.parse(message.data));
            if (parsed.success) setEvent(parsed.data);
          }
        }
      } catch (caught) {
        if (controller.signal.aborted) return;
        setError(caught);
      }
      if (controller.signal.aborted) return;
      await queryClient.invalidateQueries({ queryKey: studioQueryKeys.project(projectId) });
      await queryClient.invalidateQueries({ queryKey: studioQueryKeys.list });
      onDone?.();
    })();
    return () => controller.abort();
  }, [projectId, active, queryClient, restartKey]);

  return { event, error };
}
