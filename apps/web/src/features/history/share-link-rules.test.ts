import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  getShareIntentUrls,
  isMobileUserAgent,
  SHARE_LINK_DISPLAY_LENGTH,
  shareMessage,
  shareNatively,
  shortenShareLink,
  toAbsoluteShareLink,
} from './share-link-rules';

const link = 'https://parla.example/share/Ab3dEf6hIj9kLm2nOp5q';

describe('the share message (history/voices §2)', () => {
  it('names the brand', () => {
    expect(shareMessage).toBe('Listen to this text to speech that I made with Parla');
  });
});

describe('shortenShareLink (history/voices §9: cut at 38 characters plus an ellipsis)', () => {
  it('cuts a long link at 38 characters and adds an ellipsis', () => {
    expect(shortenShareLink(link)).toBe('https://parla.example/share/Ab3dEf6hIj...');
    expect(shortenShareLink(link).length).toBe(38 + 3);
  });

  it('leaves a link of 38 characters or fewer as it is', () => {
    const exact = 'x'.repeat(38);
    expect(shortenShareLink(exact)).toBe(exact);
    expect(shortenShareLink('/share/a')).toBe('/share/a');
  });

  it('always starts with the link and never shows more than 38 of its characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const shown = shortenShareLink(text);
        const kept =
          shown.endsWith('...') && text.length > SHARE_LINK_DISPLAY_LENGTH ? shown.slice(0, -3) : shown;
        expect(text.startsWith(kept)).toBe(true);
        expect(kept.length).toBeLessThanOrEqual(Math.max(SHARE_LINK_DISPLAY_LENGTH, 0));
      }),
    );
  });
});

describe('toAbsoluteShareLink (history/voices §3: relative or absolute; on this page’s origin)', () => {
  it('resolves a relative link on the origin', () => {
    expect(toAbsoluteShareLink('/share/abc', 'https://parla.example')).toBe(
      'https://parla.example/share/abc',
    );
    expect(toAbsoluteShareLink(link, 'https://parla.example')).toBe(link);
  });

  it('moves a link made on another name of the server to the origin the user is on (issue 18)', () => {
    expect(toAbsoluteShareLink('http://localhost:8080/share/Ab3?x=1', 'http://127.0.0.1:8080')).toBe(
      'http://127.0.0.1:8080/share/Ab3?x=1',
    );
  });
});

describe('isMobileUserAgent (history/voices §2)', () => {
  it.each([
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36',
    'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
  ])('takes %s for mobile', (ua) => {
    expect(isMobileUserAgent(ua)).toBe(true);
  });

  it.each([
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15',
    'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
    '',
  ])('takes %j for a desktop', (ua) => {
    expect(isMobileUserAgent(ua)).toBe(false);
  });
});

describe('getShareIntentUrls (history/voices §2)', () => {
  it('builds the facebook, x and whatsapp intents with the link and the message', () => {
    const urls = getShareIntentUrls('https://parla.example/share/a b');
    const message = encodeURIComponent(shareMessage);
    expect(urls.facebook).toBe(
      `https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fparla.example%2Fshare%2Fa%20b&quote=${message}`,
    );
    expect(urls.x).toBe(
      `https://x.com/intent/tweet?text=${message}&url=https%3A%2F%2Fparla.example%2Fshare%2Fa%20b`,
    );
    expect(urls.whatsapp).toBe(
      `https://wa.me/?text=${encodeURIComponent(`${shareMessage} https://parla.example/share/a b`)}`,
    );
  });

  it('carries the link intact through its query parameter', () => {
    const tricky = 'https://parla.example/share/x?y=1&z=#frag';
    expect(new URL(getShareIntentUrls(tricky).x).searchParams.get('url')).toBe(tricky);
    expect(new URL(getShareIntentUrls(tricky).facebook).searchParams.get('u')).toBe(tricky);
    expect(new URL(getShareIntentUrls(tricky).whatsapp).searchParams.get('text')).toContain(tricky);
  });
});

describe('shareNatively (history/voices §4 "Share link", §8)', () => {
  const data = { url: link, text: shareMessage, title: 'Parla' };

  it('uses the native share sheet when there is one', async () => {
    const share = vi.fn(async () => {});
    const copy = vi.fn(async () => {});
    expect(await shareNatively({ share, copy }, data)).toEqual({ kind: 'shared' });
    expect(share).toHaveBeenCalledWith(data);
    expect(copy).not.toHaveBeenCalled();
  });

  it('ends quietly when the person cancels (AbortError)', async () => {
    const copy = vi.fn(async () => {});
    const share = vi.fn(async () => {
      throw new DOMException('Share canceled', 'AbortError');
    });
    expect(await shareNatively({ share, copy }, data)).toEqual({ kind: 'cancelled' });
    expect(copy).not.toHaveBeenCalled();
  });

  it('copies the link after any other failure, with "Share link copied to clipboard"', async () => {
    const copy = vi.fn(async () => {});
    const share = vi.fn(async () => {
      throw new DOMException('Not allowed', 'NotAllowedError');
    });
    expect(await shareNatively({ share, copy }, data)).toEqual({
      kind: 'copied',
      toast: 'Share link copied to clipboard',
    });
    expect(copy).toHaveBeenCalledWith(link);
  });

  it('copies the link without share support, with "Share API not supported"', async () => {
    const copy = vi.fn(async () => {});
    expect(await shareNatively({ share: undefined, copy }, data)).toEqual({
      kind: 'copied',
      toast: 'Share API not supported',
    });
    expect(copy).toHaveBeenCalledWith(link);
  });

  it('reports a copy that fails (logged), so the link is shown instead of a "copied" toast', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const copy = vi.fn(async () => {
      throw new Error('denied');
    });
    const failedShare = vi.fn(async () => {
      throw new Error('not allowed');
    });
    for (const share of [undefined, failedShare]) {
      expect(await shareNatively({ share, copy }, data)).toEqual({
        kind: 'copy-failed',
        toast: 'The link could not be copied. Copy it from the box below.',
      });
    }
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});
