import { z } from 'zod';
import { findBracketedTags, hasBracketedTag } from './dialogue';
import type { HistorySource } from './history';
import { defineRoute } from './routes';

/** history/voices §3 "Themes": the looks a share video comes in. */
export const SHARE_VIDEO_THEMES = ['colour', 'light', 'dark'] as const;
export type ShareVideoTheme = (typeof SHARE_VIDEO_THEMES)[number];

/** history/voices §4 "Share video modal": the theme starts as colour. */
export const DEFAULT_SHARE_VIDEO_THEME: ShareVideoTheme = 'colour';

/** How a theme looks, on the video and on the dialog's swatches. */
export interface ShareVideoThemeStyle {
  /** The label of the theme's radio choice (history/voices §3). */
  label: string;
  /** The background: one colour, or the stops of a left-to-right gradient (colour). */
  background: readonly string[];
  /** The colour of the text. */
  text: string;
  /** The colour of the animated spectrum bars. */
  bars: string;
}

/**
 * history/voices §3 "Themes": light is White on #ffffff, dark is Black on #18181b (both from the spec);
 * Multicolor's gradient (violet → pink → amber) and the text and bar colours are Parla's.
 */
export const shareVideoThemes: Record<ShareVideoTheme, ShareVideoThemeStyle> = {
  colour: {
    label: 'Multicolor',
    background: ['#6d28d9', '#db2777', '#f59e0b'],
    text: '#ffffff',
    bars: '#ffffff',
  },
  light: { label: 'White', background: ['#ffffff'], text: '#18181b', bars: '#7c3aed' },
  dark: { label: 'Black', background: ['#18181b'], text: '#fafafa', bars: '#a78bfa' },
};

/** history/voices §9: the progress bar estimates 130 ms of rendering per character of text. */
export const SHARE_VIDEO_MS_PER_CHARACTER = 130;
/** history/voices §9: the progress bar moves every 100 ms. */
export const SHARE_VIDEO_PROGRESS_INTERVAL_MS = 100;
/** history/voices §9: the downloaded video has this fixed name. */
export const SHARE_VIDEO_FILE_NAME = 'parla-video.mp4';

/**
 * history/voices §9: the estimated share of a render done after `elapsedMs`, for a text of `textLength`
 * characters: elapsed / (130 ms × characters), capped at 1 (an empty text is done at once).
 */
export function videoProgress(elapsedMs: number, textLength: number): number {
  const estimateMs = SHARE_VIDEO_MS_PER_CHARACTER * Math.max(0, textLength);
  if (!(estimateMs > 0)) return 1;
  const share = Math.max(0, elapsedMs) / estimateMs;
  return Number.isFinite(share) ? Math.min(1, share) : 0;
}

/** Stands where a tag was until the spaces are collapsed: a private-use character, which no text means. */
const TAG_MARK = '\uE000';
/** A removed tag and the spaces around it, right before punctuation. */
const GAP_BEFORE_PUNCTUATION = /\s*\uE000[\s\uE000]*(?=[,.!?;:…])/g;

/**
 * The text of a video with `strip_v3_tags`: the bracketed audio tags (as findBracketedTags reads them, so
 * a nested group goes whole and `[a\nb]` is text) removed; each run of whitespace collapsed to one space,
 * or to one line break when it holds one (paragraphs stay, and a bracket split by a line stays split); no
 * space left before the punctuation a tag stood before ("Hi [laughs], you" → "Hi, you").
 */
export function stripV3Tags(text: string): string {
  // Taking a tag out can join what was around it into a new one (`[[]\n,]` → `[,]`): again until none is
  // left; each pass removes at least one tag, so this ends.
  let stripped = stripTagsOnce(text);
  while (hasBracketedTag(stripped)) stripped = stripTagsOnce(stripped);
  return stripped;
}

function stripTagsOnce(text: string): string {
  let marked = '';
  let at = 0;
  for (const tag of findBracketedTags(text)) {
    marked += `${text.slice(at, tag.start)}${TAG_MARK}`;
    at = tag.end;
  }
  return (marked + text.slice(at))
    .replace(GAP_BEFORE_PUNCTUATION, '')
    .replaceAll(TAG_MARK, ' ')
    .replace(/\s+/g, (run) => (/[\n\r]/.test(run) ? '\n' : ' '))
    .trim();
}

/** The messages of history/voices §5 and §8 about share videos. */
export const shareVideoMessages = {
  onlyTextToSpeech: 'Video generation is only available for text-to-speech items',
  unknownVideoError: 'Unknown error generating video',
  unknownPreviewError: 'Unknown error generating video preview',
} as const;

/** history/voices §8: the toast of a failed render. */
export function videoErrorMessage(message?: string | null): string {
  return message ? `Error generating video: ${message}` : shareVideoMessages.unknownVideoError;
}

/** history/voices §8: the toast of a failed preview. */
export function videoPreviewErrorMessage(message?: string | null): string {
  return message ? `Error generating video preview: ${message}` : shareVideoMessages.unknownPreviewError;
}

/** history/voices §5: only text-to-speech items (a dialogue is one) make videos. */
export function canMakeShareVideo(source: HistorySource): boolean {
  return source === 'TTS';
}

/** The query of the video calls: the theme, and whether the bracketed v3 tags leave the drawn text. */
export const ShareVideoQuery = z.object({
  theme: z.enum(SHARE_VIDEO_THEMES).default(DEFAULT_SHARE_VIDEO_THEME),
  /** "true" (the default, as the dialog's keep-tags toggle starts off) draws the text without its tags. */
  strip_v3_tags: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
export type ShareVideoQuery = z.infer<typeof ShareVideoQuery>;

/** history/voices §3 "Video generation response". */
export const ShareVideoResponse = z
  .object({
    /**
     * Where the rendered mp4 is (`GET` of the same path and query, an absolute URL). It is read with the
     * caller's credentials like the item's audio: the web app fetches it as a blob.
     */
    video_url: z.string(),
  })
  .meta({ id: 'ShareVideoResponse' });
export type ShareVideoResponse = z.infer<typeof ShareVideoResponse>;

const itemParams = z.object({ history_item_id: z.string().max(100) });

/**
 * Renders (once per item, theme and tag choice; later calls reuse it) a video of a text-to-speech item:
 * its audio, an animated spectrum and its text. Answers when the render is done.
 */
export const generateShareVideoRoute = defineRoute({
  method: 'POST',
  path: '/v1/history/:history_item_id/video',
  summary: 'Render a share video of a generated item',
  tags: ['history'],
  params: itemParams,
  query: ShareVideoQuery,
  response: ShareVideoResponse,
});

/**
 * The rendered video (`video_url`), as `video/mp4`; 404 until it has been rendered. Authenticated like the
 * item's audio rather than made public by an unguessable URL: the video shows the workspace's text, and a
 * private route needs no new secret or table.
 */
export const getShareVideoRoute = defineRoute({
  method: 'GET',
  path: '/v1/history/:history_item_id/video',
  summary: 'The rendered share video of a generated item',
  tags: ['history'],
  params: itemParams,
  query: ShareVideoQuery,
  response: z.any().meta({ description: 'The video, video/mp4 (H.264 and AAC)' }),
});

/** history/voices §3: a preview of the video in a theme, one frame as a PNG image. */
export const getShareVideoPreviewRoute = defineRoute({
  method: 'GET',
  path: '/v1/history/:history_item_id/video/preview',
  summary: 'A still preview of a share video',
  tags: ['history'],
  params: itemParams,
  query: ShareVideoQuery,
  response: z.any().meta({ description: 'The preview, image/png' }),
});
