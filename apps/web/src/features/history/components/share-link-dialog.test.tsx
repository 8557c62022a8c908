import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../../lib/access-token';
import { createQueryClient } from '../../../lib/query-client';
import { createToastStore } from '../../../lib/toasts/toast-store';
import { apiError, json } from '../../../test/billing-fixture';
import { shareMessage } from '../share-link-rules';
import { ShareLinkDialog } from './share-link-dialog';
import { ShareToastArea } from './share-toast-area';

const link = 'http://localhost:3000/share/Ab3dEf6hIj9kLm2nOp5q';
const iPhone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';

interface StubOptions {
  shareLink?: () => Response | Promise<Response>;
  updateName?: (body: { public_user_name: string }) => Response;
}

/** Answers the share-link and public-name calls; records what was sent. */
function stubApi({
  shareLink = () => json({ share_link: '/share/Ab3dEf6hIj9kLm2nOp5q', public_user_name: 'Ada' }),
  updateName = (body) => json({ status: 'ok', public_user_name: body.public_user_name }),
}: StubOptions = {}) {
  setAccessToken('t1');
  const sent: Array<{ key: string; body?: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      sent.push({ key, body });
      if (key === 'GET /v1/history/h1/share-link') return shareLink();
      if (key === 'POST /v1/user/update-public-user-name') return updateName(body);
      return apiError(404, 'not_found');
    }),
  );
  return sent;
}

/** Puts a clipboard, and optionally a native share, on the navigator. */
function stubNavigator({
  share,
  userAgent,
}: {
  share?: (data: ShareData) => Promise<void>;
  userAgent?: string;
}) {
  const writeText = vi.fn(async (_text: string) => {});
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
  Object.defineProperty(navigator, 'share', { configurable: true, value: share });
  if (userAgent) vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
  return { writeText };
}

function renderDialog() {
  const store = createToastStore();
  const onOpenChange = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ShareToastArea store={store}>
        <ShareLinkDialog historyItemId="h1" open onOpenChange={onOpenChange} />
      </ShareToastArea>
    </QueryClientProvider>,
  );
  return { store, onOpenChange };
}

const toastTitles = (store: ReturnType<typeof createToastStore>) => store.getSnapshot().map((t) => t.title);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'clipboard');
  Reflect.deleteProperty(navigator, 'share');
  setAccessToken(null);
});

describe('<ShareLinkDialog> on a desktop (history/voices §2, §4, §8)', () => {
  it('says "Generating link..." until the link arrives, then offers the intents, the copy row and the name', async () => {
    let answer: (response: Response) => void = () => {};
    stubApi({ shareLink: () => new Promise<Response>((resolve) => (answer = resolve)) });
    stubNavigator({});
    renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Share with your community' });
    expect(within(dialog).getByText('Generating link...').getAttribute('role')).toBe('status');
    expect(within(dialog).getByRole('button', { name: 'Share on X' })).toHaveProperty('disabled', true);
    expect(within(dialog).getByRole('button', { name: 'Copy' })).toHaveProperty('disabled', true);

    answer(json({ share_link: '/share/Ab3dEf6hIj9kLm2nOp5q', public_user_name: 'Ada' }));
    const x = await within(dialog).findByRole('link', { name: 'Share on X' });
    expect(within(dialog).queryByText('Generating link...')).toBeNull();
    const message = encodeURIComponent(shareMessage);
    expect(x.getAttribute('href')).toBe(
      `https://x.com/intent/tweet?text=${message}&url=${encodeURIComponent(link)}`,
    );
    expect(x.getAttribute('target')).toBe('_blank');
    expect(within(dialog).getByRole('link', { name: 'Share on Facebook' }).getAttribute('href')).toBe(
      `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(link)}&quote=${message}`,
    );
    expect(within(dialog).getByRole('link', { name: 'Share on WhatsApp' }).getAttribute('href')).toBe(
      `https://wa.me/?text=${encodeURIComponent(`${shareMessage} ${link}`)}`,
    );
    expect(within(dialog).getByRole('separator')).toBeTruthy();
    const shown = within(dialog).getByRole('status', { name: 'Share link' });
    expect(shown.textContent).toBe(`${link.slice(0, 38)}...`);
    expect(shown.getAttribute('title')).toBe(link);
    expect((within(dialog).getByLabelText('Public name') as HTMLInputElement).value).toBe('Ada');
  });

  it('copies the whole link with a toast', async () => {
    stubApi();
    const { writeText } = stubNavigator({});
    const { store } = renderDialog();
    const dialog = screen.getByRole('dialog');
    await within(dialog).findByRole('link', { name: 'Share on X' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(toastTitles(store)).toEqual(['Link copied to clipboard']));
    expect(writeText).toHaveBeenCalledWith(link);
  });

  it('shows a failure to get the link in an error alert inside the dialog', async () => {
    stubApi({
      shareLink: () => apiError(404, 'history_item_not_found', 'This history item does not exist.'),
    });
    stubNavigator({});
    renderDialog();
    const dialog = screen.getByRole('dialog');
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This history item does not exist.');
    expect(within(dialog).queryByText('Generating link...')).toBeNull();
  });

  it('saves the public name on demand and says "Public name updated"', async () => {
    const sent = stubApi();
    stubNavigator({});
    const { store } = renderDialog();
    const input = await screen.findByLabelText('Public name');
    fireEvent.change(input, { target: { value: '  Ada Lovelace ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTitles(store)).toEqual(['Public name updated']));
    expect(sent.filter((call) => call.key.startsWith('POST'))).toEqual([
      { key: 'POST /v1/user/update-public-user-name', body: { public_user_name: 'Ada Lovelace' } },
    ]);
  });

  it('says "Public name updated" even when saving fails, and only logs the failure', async () => {
    stubApi({ updateName: () => apiError(500, 'internal_error', 'Boom') });
    stubNavigator({});
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderDialog();
    fireEvent.change(await screen.findByLabelText('Public name'), { target: { value: 'Ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTitles(store)).toEqual(['Public name updated']));
    expect(log).toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('<ShareLinkDialog> on mobile (history/voices §2, §4, §8)', () => {
  it('is a bottom sheet with the public-name editor and a share button using the native share', async () => {
    stubApi();
    const share = vi.fn(async (_data: ShareData) => {});
    const { writeText } = stubNavigator({ share, userAgent: iPhone });
    const { store } = renderDialog();
    const sheet = screen.getByRole('dialog', { name: 'Share with your community' });
    expect(sheet.hasAttribute('data-sheet')).toBe(true);
    expect(await within(sheet).findByLabelText('Public name')).toBeTruthy();
    expect(within(sheet).queryByRole('link', { name: 'Share on X' })).toBeNull();
    expect(within(sheet).queryByRole('button', { name: 'Copy' })).toBeNull();
    fireEvent.click(within(sheet).getByRole('button', { name: 'Share' }));
    await waitFor(() =>
      expect(share).toHaveBeenCalledWith({ url: link, text: shareMessage, title: 'Parla' }),
    );
    expect(writeText).not.toHaveBeenCalled();
    expect(toastTitles(store)).toEqual([]);
  });

  it('ends quietly when the native share is cancelled', async () => {
    stubApi();
    const share = vi.fn(async () => {
      throw new DOMException('cancelled', 'AbortError');
    });
    const { writeText } = stubNavigator({ share, userAgent: iPhone });
    const { store } = renderDialog();
    const button = await screen.findByRole('button', { name: 'Share' });
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    fireEvent.click(button);
    await waitFor(() => expect(share).toHaveBeenCalled());
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    expect(writeText).not.toHaveBeenCalled();
    expect(toastTitles(store)).toEqual([]);
  });

  it('copies the link with "Share link copied to clipboard" when the native share fails', async () => {
    stubApi();
    const share = vi.fn(async () => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    const { writeText } = stubNavigator({ share, userAgent: iPhone });
    const { store } = renderDialog();
    const button = await screen.findByRole('button', { name: 'Share' });
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    fireEvent.click(button);
    await waitFor(() => expect(toastTitles(store)).toEqual(['Share link copied to clipboard']));
    expect(writeText).toHaveBeenCalledWith(link);
  });

  it('copies the link with "Share API not supported" when there is no native share', async () => {
    stubApi();
    const { writeText } = stubNavigator({ userAgent: iPhone });
    const { store } = renderDialog();
    const button = await screen.findByRole('button', { name: 'Share' });
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    fireEvent.click(button);
    await waitFor(() => expect(toastTitles(store)).toEqual(['Share API not supported']));
    expect(writeText).toHaveBeenCalledWith(link);
  });
});
