import {
  type DownloadHistoryRequest,
  describeOutputFormat,
  downloadExtension,
  downloadHistoryRoute,
  type HistoryItemResponse,
  type HistoryNamingItem,
  historyItemFileName,
  historyVoiceName,
  historyZipFileName,
  OUTPUT_FORMATS,
  sanitizeDownloadName,
  withExtension,
} from '@parla/contracts';
import { apiFetch } from '../../lib/api-client';
import { readContentDispositionFileName } from '../../lib/content-disposition';
import { saveBlob } from '../../lib/save-file';

/**
 * history/voices §5 "Downloads": the response types a download may have, with the extension each gives its
 * file — a zip, and the audio types the server encodes (contracts' output formats).
 */
export const downloadResponseTypes: ReadonlyMap<string, string> = new Map([
  ['application/zip', 'zip'],
  ...OUTPUT_FORMATS.map((format) => {
    const spec = describeOutputFormat(format);
    return [spec.contentType, spec.extension] as const;
  }),
]);

/** The media type of a Content-Type header, without its parameters, lower-cased ('' when absent). */
export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * history/voices §5, §8: the file extension of a download response by its type; any type outside the known
 * set fails with "Invalid response type received: '{type}' is not supported."
 */
export function checkDownloadResponseType(contentType: string | null | undefined): string {
  const type = mediaTypeOf(contentType);
  const extension = downloadResponseTypes.get(type);
  if (!extension) throw new Error(`Invalid response type received: '${type}' is not supported.`);
  return extension;
}

/** Moved to lib (the speech-to-text exports read it too); still exported here for this feature's callers. */
export { readContentDispositionFileName };

/** The naming fields of a history item (history/voices §3 "History item naming for downloads"). */
export function toNamingItem(
  item: Pick<HistoryItemResponse, 'voice_name' | 'date_unix' | 'voice_category' | 'model_id' | 'settings'> &
    Partial<Pick<HistoryItemResponse, 'dialogue'>>,
): HistoryNamingItem {
  const number = (key: string) => {
    const value = item.settings[key];
    return typeof value === 'number' ? value : undefined;
  };
  const boost = item.settings.use_speaker_boost;
  return {
    name: historyVoiceName(item),
    date_unix: item.date_unix,
    category: item.voice_category,
    model_id: item.model_id,
    voice_settings: {
      speed: number('speed'),
      stability: number('stability'),
      similarity_boost: number('similarity_boost'),
      style: number('style'),
      quality: number('quality'),
      use_speaker_boost: typeof boost === 'boolean' ? boost : undefined,
    },
  };
}

/**
 * The name of an item's audio in the format it was made in (the player's Download button): the
 * contracts' name with the extension of the item's output format.
 */
export function historyItemDownloadName(
  item: Parameters<typeof toNamingItem>[0] & Pick<HistoryItemResponse, 'output_format'>,
): string {
  const format = OUTPUT_FORMATS.find((candidate) => candidate === item.output_format);
  const extension = format ? describeOutputFormat(format).extension : downloadExtension(item.output_format);
  return historyItemFileName(toNamingItem(item), extension);
}

/**
 * The name a download is saved under: the server's (Content-Disposition), made safe and given the
 * extension of what arrived (§5); without one, the contracts' name of the item, or of a zip of several.
 */
export function pickDownloadFileName({
  contentDisposition,
  extension,
  items,
  nowUnix,
}: {
  contentDisposition: string | null | undefined;
  extension: string;
  items: ReadonlyArray<Parameters<typeof toNamingItem>[0]>;
  nowUnix: number;
}): string {
  const given = readContentDispositionFileName(contentDisposition);
  if (given) {
    const safe = sanitizeDownloadName(given);
    if (safe) return sanitizeDownloadName(withExtension(safe, extension));
  }
  const [only] = items;
  if (extension === 'zip' || !only || items.length > 1) return historyZipFileName(nowUnix);
  return historyItemFileName(toNamingItem(only), extension);
}

export interface DownloadHistoryOptions {
  outputFormat?: DownloadHistoryRequest['output_format'];
  signal?: AbortSignal;
}

/**
 * `POST /v1/history/download` (history/voices §7): one item saves its audio file, several a zip. The
 * response type is checked against the known set before anything is saved (§5). Answers the file name.
 */
export async function downloadHistory(
  items: ReadonlyArray<HistoryItemResponse>,
  { outputFormat, signal }: DownloadHistoryOptions = {},
): Promise<string> {
  const response = await apiFetch(downloadHistoryRoute, {
    body: {
      history_item_ids: items.map((item) => item.history_item_id),
      ...(outputFormat ? { output_format: outputFormat } : {}),
    },
    signal,
  });
  const extension = checkDownloadResponseType(response.headers.get('content-type'));
  const fileName = pickDownloadFileName({
    contentDisposition: response.headers.get('content-disposition'),
    extension,
    items,
    nowUnix: Math.floor(Date.now() / 1000),
  });
  saveBlob(await response.blob(), fileName);
  return fileName;
}
