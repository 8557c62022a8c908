import { addPvcSamplesRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../lib/api-upload';
import { invalidateVoices } from './voice-query-keys';

export interface AddPvcSamplesInput {
  voiceId: string;
  files: readonly File[];
  removeBackgroundNoise: boolean;
  /** The upload's progress, 0–1. */
  onProgress?: (share: number) => void;
  signal?: AbortSignal;
}

/**
 * `POST /v1/voices/pvc/{id}/samples` (multipart `files`, `remove_background_noise`): long recordings of
 * the voice, each checked and measured by the server. Sent with upload progress.
 */
export function addPvcSamples({
  voiceId,
  files,
  removeBackgroundNoise,
  onProgress,
  signal,
}: AddPvcSamplesInput) {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  form.append('remove_background_noise', String(removeBackgroundNoise));
  return apiUpload(addPvcSamplesRoute, {
    params: { voice_id: voiceId },
    body: form,
    onProgress: (sent, total) => onProgress?.(total > 0 ? sent / total : 0),
    ...(signal ? { signal } : {}),
  });
}

export function useAddPvcSamples() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addPvcSamples, onSuccess: () => invalidateVoices(queryClient) });
}
