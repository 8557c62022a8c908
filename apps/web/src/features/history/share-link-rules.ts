/** The brand the share message names (history/voices §2: "…that I made with {brand}"). */
export const SHARE_BRAND = 'Parla';

/** history/voices §2: the message outbound share links carry, with `{brand}` in place of the brand. */
export const SHARE_MESSAGE_TEMPLATE = 'Listen to this text to speech that I made with {brand}';

/** The share message with the brand filled in. */
export const shareMessage = SHARE_MESSAGE_TEMPLATE.replace('{brand}', SHARE_BRAND);

/** history/voices §9: the displayed link is cut at this many characters, plus an ellipsis. */
export const SHARE_LINK_DISPLAY_LENGTH = 38;

/** The texts of the share link dialog (history/voices §2, §8). */
export const shareLinkMessages = {
  title: 'Share with your community',
  generating: 'Generating link...',
  copied: 'Link copied to clipboard',
  nativeShareFailed: 'Share link copied to clipboard',
  noShareSupport: 'Share API not supported',
  publicNameUpdated: 'Public name updated',
  /** Not in the spec: the fallback copy was refused too (a phone may allow it only right after a tap). */
  copyFailed: 'The link could not be copied. Copy it from the box below.',
} as const;

/** history/voices §9: the link as shown in the copy row, cut at 38 characters plus an ellipsis. */
export function shortenShareLink(link: string, length: number = SHARE_LINK_DISPLAY_LENGTH): string {
  return link.length > length ? `${link.slice(0, length)}...` : link;
}

/**
 * history/voices §3: the share link may be relative; people get it absolute, on the origin this page is on.
 * The server builds it on PUBLIC_URL, which may be another name of this server (localhost for 127.0.0.1,
 * issue 18): the link keeps its path and takes the host the user reached.
 */
export function toAbsoluteShareLink(link: string, origin: string): string {
  const parsed = new URL(link, origin);
  return new URL(`${parsed.pathname}${parsed.search}${parsed.hash}`, origin).href;
}

/**
 * history/voices §2: the mobile test on the user agent (phones and tablets), which turns the share dialog
 * into a bottom sheet with a native share button.
 */
export function isMobileUserAgent(userAgent: string): boolean {
  return /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobi/i.test(userAgent);
}

export type ShareNetwork = 'facebook' | 'x' | 'whatsapp';

/** history/voices §2: the facebook, x and whatsapp intents, each carrying the link and the message. */
export function getShareIntentUrls(
  link: string,
  message: string = shareMessage,
): Record<ShareNetwork, string> {
  const encode = encodeURIComponent;
  return {
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${encode(link)}&quote=${encode(message)}`,
    x: `https://x.com/intent/tweet?text=${encode(message)}&url=${encode(link)}`,
    whatsapp: `https://wa.me/?text=${encode(`${message} ${link}`)}`,
  };
}

/** The parts of `navigator` the native share uses; tests pass their own. */
export interface ShareEnvironment {
  share?: ((data: ShareData) => Promise<void>) | undefined;
  copy: (text: string) => Promise<void>;
}

/**
 * How a native share ended: shared, cancelled by the person (quietly), or the link was copied instead —
 * because the share failed, or because there is no share support — with the toast to show; or the copy
 * failed as well, and the link must be shown to copy by hand.
 */
export type NativeShareOutcome =
  | { kind: 'shared' }
  | { kind: 'cancelled' }
  | {
      kind: 'copied';
      toast: typeof shareLinkMessages.nativeShareFailed | typeof shareLinkMessages.noShareSupport;
    }
  | { kind: 'copy-failed'; toast: typeof shareLinkMessages.copyFailed };

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}

/**
 * history/voices §2, §4, §8 "Share link" on mobile: the native share sheet when there is one; an
 * AbortError (the person closed it) ends quietly; any other failure copies the link ("Share link copied to
 * clipboard"); no share support copies it too ("Share API not supported"). A copy that fails is logged and
 * reported, so the link can be shown instead of a toast that says it was copied.
 */
export async function shareNatively(
  environment: ShareEnvironment,
  data: { url: string; text: string; title: string },
): Promise<NativeShareOutcome> {
  const copyInstead = async (
    toast: typeof shareLinkMessages.nativeShareFailed | typeof shareLinkMessages.noShareSupport,
  ): Promise<NativeShareOutcome> => {
    try {
      await environment.copy(data.url);
      return { kind: 'copied', toast };
    } catch (error) {
      console.error('Copying the share link failed', error);
      return { kind: 'copy-failed', toast: shareLinkMessages.copyFailed };
    }
  };
  if (!environment.share) return copyInstead(shareLinkMessages.noShareSupport);
  try {
    await environment.share(data);
    return { kind: 'shared' };
  } catch (error) {
    if (isAbortError(error)) return { kind: 'cancelled' };
    return copyInstead(shareLinkMessages.nativeShareFailed);
  }
}
