import {
  buildPath,
  getSharedItemAudioRoute,
  SHARE_PAGE_PATH,
  type SharedItemResponse,
} from '@parla/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import type { PageHead, WebPageHead } from '../../platform/module';
import { toSharedItemResponse } from './history.present';
import { getSharedItem } from './history.store';

const SITE_NAME = 'Parla';
/** Link previews show about this much of a description; a longer one is cut at a word. */
const DESCRIPTION_LENGTH = 200;

/** The text cut to `max` characters at a word boundary, with an ellipsis when cut. */
export function previewText(text: string, max: number = DESCRIPTION_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The voices of an item as its page names them: every speaker of a dialogue, once each, in order. */
function voicesOf(item: SharedItemResponse): string {
  const names = item.dialogue?.length
    ? [...new Set(item.dialogue.map((line) => line.voice_name))]
    : [item.voice_name];
  return names.join(', ');
}

/**
 * The head of a share page (history/voices §2): Open Graph and Twitter card tags for link previews, with
 * the spoken text, the voice, the page and its audio on PUBLIC_URL (crawlers come from outside, so the
 * configured address is the one to give them). An unknown or deleted link gets the site's generic tags
 * and a 404.
 */
export async function sharePageHead(
  deps: Pick<AppDeps, 'database' | 'config'>,
  shareLinkId: string,
): Promise<PageHead> {
  const base = deps.config.publicUrl;
  const pageUrl = `${base}${buildPath(SHARE_PAGE_PATH, { share_link_id: shareLinkId })}`;
  const shared = shareLinkId.length <= 100 ? await getSharedItem(deps.database.db, shareLinkId) : undefined;
  if (!shared) {
    const title = `Shared audio · ${SITE_NAME}`;
    const description = `Speech made with ${SITE_NAME}, the self-hostable voice and audio AI platform.`;
    return {
      title,
      description,
      status: 404,
      meta: [
        { property: 'og:site_name', content: SITE_NAME },
        { property: 'og:type', content: 'website' },
        { property: 'og:title', content: title },
        { property: 'og:description', content: description },
        { name: 'twitter:card', content: 'summary' },
        { name: 'twitter:title', content: title },
        { name: 'twitter:description', content: description },
      ],
    };
  }
  const item = toSharedItemResponse(shareLinkId, shared);
  const spoken = item.dialogue?.length ? item.dialogue.map((line) => line.text).join(' ') : item.text;
  const title = `Listen to ${voicesOf(item)} on ${SITE_NAME}`;
  const description = previewText(spoken);
  const audioUrl = `${base}${buildPath(getSharedItemAudioRoute.path, { share_link_id: shareLinkId })}`;
  return {
    title,
    description,
    meta: [
      { property: 'og:site_name', content: SITE_NAME },
      { property: 'og:type', content: 'music.song' },
      { property: 'og:title', content: title },
      { property: 'og:description', content: description },
      { property: 'og:url', content: pageUrl },
      { property: 'og:audio', content: audioUrl },
      ...(audioUrl.startsWith('https:') ? [{ property: 'og:audio:secure_url', content: audioUrl }] : []),
      { property: 'og:audio:type', content: item.content_type },
      ...(item.duration_ms
        ? [{ property: 'music:duration', content: String(Math.round(item.duration_ms / 1000)) }]
        : []),
      { name: 'twitter:card', content: 'summary' },
      { name: 'twitter:title', content: title },
      { name: 'twitter:description', content: description },
    ],
  };
}

/** The share page's head, for the app's page server (the history manifest's `pageHeads`). */
export const sharePageHeads: readonly WebPageHead[] = [
  {
    path: SHARE_PAGE_PATH,
    head: (request: FastifyRequest, deps: AppDeps) =>
      sharePageHead(deps, (request.params as { share_link_id: string }).share_link_id),
  },
];
