import {
  DOWNLOAD_NAME_BRAND,
  extensionOfContentType,
  type SharedItemResponse,
  sanitizeAudioName,
  sanitizeDownloadName,
} from '@parla/contracts';
import type { Playback } from '../player';
import { sharedItemAudioUrl } from './api/get-shared-item';

/** The names of a shared item's voices: every speaker of a dialogue once, in order of speaking. */
export function sharedItemVoices(item: SharedItemResponse): string {
  const names = item.dialogue?.length
    ? [...new Set(item.dialogue.map((line) => line.voice_name))]
    : [item.voice_name];
  return names.join(', ');
}

/** What a shared item's audio is saved as: `Parla_<date>_<voice>_shared.<ext>`. */
export function sharedItemFileName(item: SharedItemResponse): string {
  const date = new Date(item.date_unix * 1000).toISOString().slice(0, 10);
  const voice = sanitizeAudioName(item.voice_name) || 'voice';
  return sanitizeDownloadName(
    `${DOWNLOAD_NAME_BRAND}_${date}_${voice}_shared.${extensionOfContentType(item.content_type)}`,
  );
}

/**
 * A shared item for the app's bottom player (history/voices §2 share page): its public audio, no sign-in,
 * waiting for the play button. Its id is left empty: a visitor's player neither polls nor rates a history
 * item that is not theirs, and Download saves the public file.
 */
export function sharedItemPlayback(item: SharedItemResponse, autoStart: boolean): Playback {
  const spoken = item.dialogue?.length ? item.dialogue.map((line) => line.text).join(' ') : item.text;
  return [
    {
      id: '',
      fileName: sharedItemFileName(item),
      type: 'speechHistoryItem',
      loaded: true,
      player: {
        title: sharedItemVoices(item),
        description: spoken,
        voice_name: item.voice_name,
        duration: item.duration_ms,
      },
      autoStart,
    },
    { kind: 'url', url: sharedItemAudioUrl(item.share_link_id) },
  ];
}
