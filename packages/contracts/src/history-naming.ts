/**
 * File names of downloaded history items (history/voices §3 "History item naming for downloads", §5
 * "Downloads"). Pure: the server names what it sends with them and the web app names what it saves.
 */

/** The brand a downloaded file name starts with. */
export const DOWNLOAD_NAME_BRAND = 'Parla';

/** Longest download name, extension included (§5). */
export const DOWNLOAD_NAME_MAX_LENGTH = 255;
/** Longest audio (voice) name inside a file name (§5). */
export const AUDIO_NAME_MAX_LENGTH = 20;

export type NamingCategory = 'generated' | 'professional' | 'premade' | 'cloned';

/** §3: the mode suffix of a voice category — generated gen, professional pvc, premade pre, cloned ivc. */
export function modeSuffix(category: NamingCategory): 'gen' | 'pvc' | 'pre' | 'ivc' {
  switch (category) {
    case 'generated':
      return 'gen';
    case 'professional':
      return 'pvc';
    case 'premade':
      return 'pre';
    case 'cloned':
      return 'ivc';
  }
}

/** §3 "output_format (wav, zip, otherwise mp3)": the extension a download format gives its file. */
export function downloadExtension(outputFormat: string | null | undefined): 'wav' | 'zip' | 'mp3' {
  if (outputFormat === 'wav' || outputFormat === 'zip') return outputFormat;
  return 'mp3';
}

/**
 * §5: the name gets `extension`, replacing an extension it already has (the last `.xyz` of 1–5 letters
 * or digits after a non-empty base), so `take.mp3` → `take.wav` and `take` → `take.wav`; an empty name
 * becomes `audio`.
 */
export function withExtension(name: string, extension: string): string {
  const base = name.replace(/(.)\.[A-Za-z0-9]{1,5}$/, '$1') || 'audio';
  return `${base}.${extension}`;
}

/** The first `length` UTF-16 units of a text, one fewer when the cut would split a surrogate pair. */
function cutWhole(text: string, length: number): string {
  const cut = text.slice(0, length);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * §5: a name safe to download: characters other than word characters (letters and digits of any
 * script, with their accents, and `_`), spaces, dots and hyphens are removed — "Lucía" keeps its í (issue
 * 26 item 7) —, spaces become underscores, and it is cut to 255 characters — from the end of the base, so
 * an extension survives.
 */
export function sanitizeDownloadName(name: string): string {
  const clean = name.replace(/[^\p{L}\p{M}\p{N}_ .-]/gu, '').replace(/ /g, '_');
  if (clean.length <= DOWNLOAD_NAME_MAX_LENGTH) return clean;
  const extension = /\.[A-Za-z0-9]{1,5}$/.exec(clean)?.[0] ?? '';
  return cutWhole(clean, DOWNLOAD_NAME_MAX_LENGTH - extension.length) + extension;
}

/**
 * §5: an audio (voice) name for a file name: characters no file system allows (`<>:"/\|?*` and control
 * characters) are removed, then it is cut to 20 characters (whole code points, so no half an emoji).
 */
export function sanitizeAudioName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  const clean = name.replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/g, '').trim();
  return Array.from(clean).slice(0, AUDIO_NAME_MAX_LENGTH).join('');
}

/** What an item's voice name is read from: its own voice_name and, for a dialogue, its lines. */
export interface VoiceNamedItem {
  voice_name: string;
  dialogue?: ReadonlyArray<{ voice_name: string }> | null;
}

/**
 * The name of an item's voices as people read it: a dialogue names every voice it speaks with, in the
 * order they first speak, joined by ", " (issue 18 item 8: not only the first, which `voice_name` holds);
 * any other item its voice_name. The download name (§3) is made of it too.
 */
export function historyVoiceName(item: VoiceNamedItem): string {
  const names: string[] = [];
  for (const line of item.dialogue ?? []) {
    const name = line.voice_name.trim();
    if (name && !names.includes(name)) names.push(name);
  }
  return names.length > 0 ? names.join(', ') : item.voice_name;
}

/** The fields of an item its download name is made of (§3). */
export interface HistoryNamingItem {
  /** The voice's name; a dialogue's voices' names (`historyVoiceName`). */
  name: string;
  date_unix: number;
  category: NamingCategory;
  model_id: string;
  voice_settings: {
    speed?: number | null;
    stability?: number | null;
    similarity_boost?: number | null;
    style?: number | null;
    quality?: number | null;
    use_speaker_boost?: boolean | null;
  };
  isbn_number?: string | null;
}

const percent = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? String(Math.round(value * 100)) : undefined;

/** `2026-11-24T05_30_00` (UTC): sortable, and no colons, which file systems refuse. */
function nameDate(dateUnix: number): string {
  const date = new Date(dateUnix * 1000);
  const iso = Number.isNaN(date.getTime()) ? '1970-01-01T00:00:00' : date.toISOString().slice(0, 19);
  return iso.replace(/:/g, '_');
}

/**
 * The file name of an item's download: `Parla_<date>_<voice>_<mode>_sp<speed>_s<stability>_sb<similarity>
 * _se<style>[_q<quality>][_b]_<model>.<ext>` (settings as percent; `b` when speaker boost is on), with the
 * ISBN first for a studio book, sanitised and limited per §5.
 */
export function historyItemFileName(item: HistoryNamingItem, extension: string): string {
  const settings = item.voice_settings;
  const parts = [
    item.isbn_number ? item.isbn_number : undefined,
    DOWNLOAD_NAME_BRAND,
    nameDate(item.date_unix),
    sanitizeAudioName(item.name) || 'voice',
    modeSuffix(item.category),
    percent(settings.speed) && `sp${percent(settings.speed)}`,
    percent(settings.stability) && `s${percent(settings.stability)}`,
    percent(settings.similarity_boost) && `sb${percent(settings.similarity_boost)}`,
    percent(settings.style) && `se${percent(settings.style)}`,
    percent(settings.quality) && `q${percent(settings.quality)}`,
    settings.use_speaker_boost ? 'b' : undefined,
    item.model_id,
  ].filter((part): part is string => Boolean(part));
  // The parts hold no extension of their own (a model id may hold a dot), so the extension is appended.
  return sanitizeDownloadName(`${parts.join('_')}.${extension}`);
}

/** The name of a zip of several items (§3: output_format zip). */
export function historyZipFileName(dateUnix: number): string {
  return sanitizeDownloadName(withExtension(`${DOWNLOAD_NAME_BRAND}_history_${nameDate(dateUnix)}`, 'zip'));
}
