import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../../lib/access-token';
import { createQueryClient } from '../../../lib/query-client';
import { createToastStore } from '../../../lib/toasts/toast-store';
import { ToastProvider } from '../../../ui/toast-provider';
import { FeedbackControl } from './feedback-control';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers the feedback call with `answer` and records the bodies sent. */
function stubFeedback(answer: (body: Record<string, unknown>) => Response) {
  const sent: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      expect(url).toBe('/v1/history/h1/feedback');
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      sent.push(body);
      return answer(body);
    }),
  );
  return sent;
}

const stored = (body: Record<string, unknown>) =>
  json({
    thumbs_up: body.thumbs_up,
    feedback: body.feedback ?? '',
    emotions: false,
    inaccurate_clone: false,
    glitches: body.glitches ?? false,
    audio_quality: false,
    other: false,
    review_status: 'not_reviewed',
  });

function renderControl(text = 'A short text.') {
  setAccessToken('t1');
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider position="bottom-right" store={createToastStore()}>
        <FeedbackControl historyItemId="h1" text={text} />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('<FeedbackControl> (history/voices §4, §5, §8)', () => {
  it('thumbs down opens the dialog with the five boxes; the text needs 20 characters or none', async () => {
    const sent = stubFeedback(stored);
    renderControl();
    fireEvent.click(screen.getByRole('button', { name: 'Bad audio' }));
    const dialog = await screen.findByRole('dialog', { name: 'What went wrong?' });
    for (const box of ['Emotions', 'Inaccurate clone', 'Glitches', 'Audio quality', 'Other'])
      expect(within(dialog).getByRole('checkbox', { name: box })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Glitches' }));
    const text = within(dialog).getByLabelText('Tell us more (optional)');
    fireEvent.change(text, { target: { value: 'Too short.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send feedback' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Feedback needs at least 20 characters.');
    expect(sent).toEqual([]);

    fireEvent.change(text, { target: { value: 'It clicks between the sentences.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByText('Your feedback has been submitted, thank you.')).toBeTruthy();
    expect(sent).toEqual([
      {
        thumbs_up: false,
        feedback: 'It clicks between the sentences.',
        emotions: false,
        inaccurate_clone: false,
        glitches: true,
        audio_quality: false,
        other: false,
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Bad audio' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('thumbs up on a short text opens the dialog with the 200-character counter; empty text is fine', async () => {
    const sent = stubFeedback(stored);
    renderControl();
    fireEvent.click(screen.getByRole('button', { name: 'Good audio' }));
    const dialog = await screen.findByRole('dialog', { name: 'What did you like?' });
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    expect(within(dialog).getByText('0 / 200')).toBeTruthy();
    const text = within(dialog).getByLabelText('Tell us more (optional)') as HTMLTextAreaElement;
    expect(text.maxLength).toBe(200);
    fireEvent.change(text, { target: { value: 'Warm and clear voice, thank you!' } });
    expect(within(dialog).getByText('32 / 200')).toBeTruthy();
    fireEvent.change(text, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByText('Your feedback has been submitted, thank you.')).toBeTruthy();
    expect(sent).toEqual([{ thumbs_up: true, feedback: '' }]);
  });

  it('thumbs up on a text over 400 characters is sent at once, with no dialog', async () => {
    const sent = stubFeedback(stored);
    renderControl('word '.repeat(81));
    fireEvent.click(screen.getByRole('button', { name: 'Good audio' }));
    expect(await screen.findByText('Your feedback has been submitted, thank you.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent).toEqual([{ thumbs_up: true }]);
    expect(screen.getByRole('button', { name: 'Good audio' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('shows the server’s message when the item was reviewed already', async () => {
    stubFeedback(() =>
      json(
        {
          detail: {
            status: 'feedback_already_reviewed',
            message: 'This feedback cannot be changed as it was already reviewed.',
          },
        },
        409,
      ),
    );
    renderControl('word '.repeat(81));
    fireEvent.click(screen.getByRole('button', { name: 'Good audio' }));
    expect(
      await screen.findByText('This feedback cannot be changed as it was already reviewed.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Good audio' }).getAttribute('aria-pressed')).toBe('false');
  });
});
