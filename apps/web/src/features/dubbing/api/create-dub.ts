import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../lib/api-upload';
import { dubbingQueryKeys } from './dubbing-query-keys';
import { createDubbingRoute } from './types';

export interface CreateDubInput {
  /** The source: an uploaded file, or a URL the server fetches. */
  source: { kind: 'file'; file: Blob; fileName: string } | { kind: 'url'; url: string };
  name: string;
  /** `auto` lets the server detect it. */
  sourceLang: string;
  targetLang: string;
  /** 0: the server finds how many speakers there are. */
  numSpeakers: number;
  startTime: number | null;
  endTime: number | null;
  dropBackgroundAudio: boolean;
  disableVoiceCloning: boolean;
  watermark: boolean;
  /** The upload's progress, 0–1. */
  onProgress?: (share: number) => void;
  signal?: AbortSignal;
}

/** The multipart form of `POST /v1/dubbing` (BodyDubAVideoOrAnAudioFileV1DubbingPost's fields). */
export function buildDubForm(input: CreateDubInput): FormData {
  const form = new FormData();
  if (input.name.trim()) form.append('name', input.name.trim());
  form.append('source_lang', input.sourceLang);
  form.append('target_lang', input.targetLang);
  form.append('num_speakers', String(input.numSpeakers));
  if (input.startTime !== null) form.append('start_time', String(input.startTime));
  if (input.endTime !== null) form.append('end_time', String(input.endTime));
  form.append('drop_background_audio', String(input.dropBackgroundAudio));
  form.append('disable_voice_cloning', String(input.disableVoiceCloning));
  form.append('watermark', String(input.watermark));
  // The editor works on every dub made here.
  form.append('dubbing_studio', 'true');
  if (input.source.kind === 'url') form.append('source_url', input.source.url.trim());
  // The file last: the server reads the fields before the body's largest part.
  else form.append('file', input.source.file, input.source.fileName);
  return form;
}

/** `POST /v1/dubbing`: uploads the source (with its progress) and starts the dub; the list shows it at once. */
export function createDub(input: CreateDubInput) {
  return apiUpload(createDubbingRoute, {
    body: buildDubForm(input),
    onProgress: (sent, total) => input.onProgress?.(total > 0 ? sent / total : 0),
    ...(input.signal ? { signal: input.signal } : {}),
  });
}

export function useCreateDub() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDub,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dubbingQueryKeys.lists }),
  });
}
