import { PREMADE_VOICES, textToSpeechRoute } from '@parla/contracts';
import { apiFetch } from '../../../lib/api-client';

/** The voice "Hear it" speaks in: the first premade voice. */
export const HEAR_IT_VOICE_ID = PREMADE_VOICES[0]?.voice_id ?? '';

/**
 * Speaks a rule's word through the normal text-to-speech call with this dictionary as its one locator, so
 * what is heard is what any request naming the dictionary hears; not kept in the history.
 */
export async function hearWithDictionary(
  input: { text: string; dictionaryId: string },
  signal?: AbortSignal,
): Promise<Blob> {
  const response = await apiFetch(
    textToSpeechRoute,
    {
      params: { voice_id: HEAR_IT_VOICE_ID },
      query: { output_format: 'mp3_44100_128', enable_logging: 'false' },
      body: {
        text: input.text,
        pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: input.dictionaryId }],
      },
      signal,
    },
    'audio/mpeg',
  );
  return response.blob();
}
