import { type OutputFormat, type SpeechToSpeechFields, speechToSpeechStreamRoute } from '@parla/contracts';
import { apiFetch } from '../../../lib/api-client';
import { type StartedGeneration, startedGeneration } from '../../../lib/started-generation';

export interface StreamSpeechToSpeechInput {
  voiceId: string;
  outputFormat: OutputFormat;
  /** The recording: a chosen file or a browser recording, sent under its name. */
  audio: Blob;
  fileName: string;
  fields: Pick<SpeechToSpeechFields, 'model_id' | 'remove_background_noise'>;
  signal?: AbortSignal;
}

/**
 * `POST /v1/speech-to-speech/{voice_id}/stream`: the multipart form of contracts SpeechToSpeechFields
 * (`audio`, `model_id`, `remove_background_noise`, `file_format=other`: the server identifies the type by
 * content). Answers once the converted audio starts; the checks (voice, model, audio, credits) fail here
 * as an HttpError.
 */
export async function streamSpeechToSpeech({
  voiceId,
  outputFormat,
  audio,
  fileName,
  fields,
  signal,
}: StreamSpeechToSpeechInput): Promise<StartedGeneration> {
  const form = new FormData();
  form.append('audio', audio, fileName);
  form.append('model_id', fields.model_id);
  form.append('remove_background_noise', String(fields.remove_background_noise));
  form.append('file_format', 'other');
  const response = await apiFetch(speechToSpeechStreamRoute, {
    params: { voice_id: voiceId },
    query: { output_format: outputFormat },
    body: form,
    signal,
  });
  return startedGeneration(response);
}
