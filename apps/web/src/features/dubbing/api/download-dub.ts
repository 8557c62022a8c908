import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { readContentDispositionFileName } from '../../../lib/content-disposition';
import { saveBlob } from '../../../lib/save-file';
import { getDubbedAudioRoute, getDubbingTranscriptRoute } from './types';

export type DubDownload =
  | { kind: 'media'; dubbingId: string; language: string; video: boolean; name: string }
  | { kind: 'subtitles'; dubbingId: string; language: string; format: 'srt' | 'webvtt'; name: string };

/** A dub's name as a file name: letters, digits, `_ .-`, spaces as underscores. */
export function safeName(name: string): string {
  return (
    name
      .replace(/[^\p{L}\p{M}\p{N}_ .-]+/gu, '')
      .trim()
      .replace(/\s+/g, '_') || 'dub'
  );
}

/**
 * `GET /v1/dubbing/{id}/audio/{language}` (mp4 for a video, mp3 for audio) or
 * `GET /v1/dubbing/{id}/transcript/{language}?format_type=srt|webvtt`, saved under the server's name.
 */
export async function downloadDub(download: DubDownload): Promise<string> {
  const params = { dubbing_id: download.dubbingId, language_code: download.language };
  const response =
    download.kind === 'media'
      ? await apiFetch(getDubbedAudioRoute, { params })
      : await apiFetch(getDubbingTranscriptRoute, {
          params,
          // `download` answers the file itself (text/plain srt, text/vtt) with its name, not JSON.
          query: { format_type: download.format, download: 'true' },
        });
  const extension =
    download.kind === 'media' ? (download.video ? 'mp4' : 'mp3') : download.format === 'srt' ? 'srt' : 'vtt';
  const fileName =
    readContentDispositionFileName(response.headers.get('content-disposition')) ??
    `${safeName(download.name)}_${download.language}.${extension}`;
  saveBlob(await response.blob(), fileName);
  return fileName;
}

export function useDownloadDub() {
  return useMutation({ mutationFn: downloadDub });
}
