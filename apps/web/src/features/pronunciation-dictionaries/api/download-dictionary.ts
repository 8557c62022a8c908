import { downloadDictionaryVersionRoute } from '@parla/contracts';
import { apiFetch } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-file';

/** A file name from the dictionary's name: letters, digits, dashes. */
export const lexiconFileName = (name: string) =>
  `${
    name
      .trim()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '') || 'dictionary'
  }.pls`;

/** `GET …/{id}/{version_id}/download`: the version as a PLS lexicon, saved as a file. */
export async function downloadDictionary(dictionary: { id: string; name: string; versionId: string }) {
  const response = await apiFetch(
    downloadDictionaryVersionRoute,
    { params: { pronunciation_dictionary_id: dictionary.id, version_id: dictionary.versionId } },
    'application/pls+xml',
  );
  saveBlob(await response.blob(), lexiconFileName(dictionary.name));
}
