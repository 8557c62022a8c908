import { addVoiceRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateVoices } from './voice-query-keys';

/** The fields of an instant clone, or of an edit (files optional there). */
export interface VoiceFormInput {
  name: string;
  description: string;
  labels: Record<string, string>;
  removeBackgroundNoise: boolean;
  files: readonly File[];
}

/**
 * The multipart form of `POST /v1/voices/add` and `/v1/voices/{id}/edit` (contracts AddVoiceFields):
 * each sample under `files`, `name`, `description`, `labels` as a JSON string, `remove_background_noise`.
 */
export function buildVoiceForm(input: VoiceFormInput): FormData {
  const form = new FormData();
  for (const file of input.files) form.append('files', file, file.name);
  form.append('name', input.name.trim());
  form.append('description', input.description.trim());
  form.append('labels', JSON.stringify(input.labels));
  form.append('remove_background_noise', String(input.removeBackgroundNoise));
  return form;
}

/** `POST /v1/voices/add`: an instant voice clone from samples. */
export function addVoice(input: VoiceFormInput) {
  return apiRequest(addVoiceRoute, { body: buildVoiceForm(input) });
}

/** Adds a clone; every voice list (the pickers' too) and the user's counters load again. */
export function useAddVoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addVoice,
    onSuccess: () => invalidateVoices(queryClient),
  });
}
