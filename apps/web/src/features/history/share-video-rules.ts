import {
  DEFAULT_SHARE_VIDEO_THEME,
  type HistoryItemResponse,
  hasBracketedTag,
  SHARE_VIDEO_THEMES,
  type ShareVideoTheme,
  shareVideoThemes,
} from '@parla/contracts';
import { isHttpError } from '../../lib/http-error';
import type { ShareVideoQueryInput } from './api/generate-share-video';

/** The texts of the share video dialog. */
export const shareVideoTexts = {
  title: 'Share as a video',
  description: 'A video of this audio with its text, ready to post anywhere.',
  themeLabel: 'Theme',
  keepTags: 'Keep v3 tags',
  keepTagsNote: 'Show the [bracketed] audio tags in the video’s text.',
  generating: 'Generating video…',
  previewLoading: 'Loading the preview…',
  previewMissing: 'No preview',
  download: 'Download',
  mute: 'Mute',
  shareLink: 'Share a link instead',
} as const;

/** The theme radio's choices, in the spec's order with its labels (history/voices §3 "Themes"). */
export const shareVideoThemeOptions = SHARE_VIDEO_THEMES.map((value) => ({
  value,
  label: shareVideoThemes[value].label,
}));

/** history/voices §4: the theme the dialog opens with and goes back to. */
export const initialShareVideoTheme: ShareVideoTheme = DEFAULT_SHARE_VIDEO_THEME;

/**
 * history/voices §2, §5: the keep-v3-tags toggle shows only when the item's text, or a line of its
 * dialogue, has a bracketed tag.
 */
export function hasTagsToKeep(item: Pick<HistoryItemResponse, 'text' | 'dialogue'>): boolean {
  return hasBracketedTag(item.text) || (item.dialogue ?? []).some((line) => hasBracketedTag(line.text));
}

/** The query of the video calls: the theme, and the tags stripped unless the toggle keeps them. */
export function shareVideoQuery(theme: ShareVideoTheme, keepTags: boolean): ShareVideoQueryInput {
  return { theme, strip_v3_tags: keepTags ? 'false' : 'true' };
}

/** Where a video stands in the dialog (history/voices §4 "Share video modal"). */
export type ShareVideoPhase = 'idle' | 'generating' | 'ready' | 'failed';

/** The Generate button's label: a retry label after a failure (history/voices §4). */
export function generateButtonLabel(phase: ShareVideoPhase): string {
  if (phase === 'generating') return 'Generating…';
  if (phase === 'failed') return 'Try again';
  return 'Generate';
}

/**
 * The message of a failed call for the video toasts (history/voices §8 "…: " plus the message): the
 * server's message, or "Network error"; undefined for anything else, which gives the "Unknown error…"
 * toast.
 */
export function failureMessage(error: unknown): string | undefined {
  return isHttpError(error) && error.message ? error.message : undefined;
}

/** A call given up on purpose (the theme changed, the dialog closed): no toast. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
