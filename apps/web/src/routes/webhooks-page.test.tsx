import { WorkspaceWebhookResponse as WebhookSchema, type WorkspaceWebhookResponse } from '@parla/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import {
  callsTo,
  cleanUpWorkspaceTest,
  makeWorkspaceSummary,
  stubWorkspaceApi,
} from '../test/workspace-fixture';

const SECRET = `wsec_${'ab'.repeat(32)}`;

function makeWebhook(overrides: Partial<WorkspaceWebhookResponse> = {}): WorkspaceWebhookResponse {
  return WebhookSchema.parse({
    name: 'Transcripts',
    webhook_id: 'wh1',
    webhook_url: 'https://example.com/hooks/parla',
    is_disabled: false,
    is_auto_disabled: false,
    created_at_unix: 1_750_000_000,
    auth_type: 'hmac',
    events: ['speech_to_text'],
    retry_enabled: true,
    consecutive_failures: 0,
    request_header_names: [],
    ...overrides,
  });
}

afterEach(cleanUpWorkspaceTest);

describe('/app/developers/webhooks', () => {
  it('invites an admin to add the first webhook, checks the form, and shows the secret once', async () => {
    const hooks: WorkspaceWebhookResponse[] = [];
    const calls = stubWorkspaceApi({
      'GET /v1/workspace/webhooks': () => json({ webhooks: hooks }),
      'POST /v1/workspace/webhooks': ({ body }) => {
        const sent = body as { settings: { name: string; webhook_url: string }; events: string[] };
        hooks.push(
          makeWebhook({
            name: sent.settings.name,
            webhook_url: sent.settings.webhook_url,
            events: sent.events as WorkspaceWebhookResponse['events'],
          }),
        );
        return json({ webhook_id: 'wh1', webhook_secret: SECRET });
      },
    });
    renderApp('/app/developers/webhooks');
    expect(await screen.findByText('No webhooks yet', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add your first webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    expect(within(dialog).getByText('Give the webhook a name.')).toBeTruthy();
    expect(within(dialog).getByText('Enter the address to call.')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/workspace/webhooks')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' Transcripts ' } });
    fireEvent.change(within(dialog).getByLabelText('Endpoint URL'), { target: { value: 'example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    expect(within(dialog).getByText(/Enter a full address/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Endpoint URL'), {
      target: { value: 'https://example.com/hooks/parla' },
    });
    // Speech to text is ticked for a new webhook; add the key event.
    expect(
      (within(dialog).getByRole('checkbox', { name: /Speech to text/ }) as HTMLInputElement).checked,
    ).toBe(true);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /API key created/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add webhook' }));

    const reveal = await screen.findByRole('dialog', { name: 'Your webhook’s signing secret' });
    expect(within(reveal).getByTestId('webhook-secret').textContent).toBe(SECRET);
    expect(callsTo(calls, 'POST /v1/workspace/webhooks')[0]?.body).toEqual({
      settings: { auth_type: 'hmac', name: 'Transcripts', webhook_url: 'https://example.com/hooks/parla' },
      events: ['speech_to_text', 'api_key.created'],
    });
    fireEvent.click(within(reveal).getByRole('button', { name: 'Done' }));
    const card = (await screen.findByRole('heading', { name: /Transcripts/ })).closest('li') as HTMLElement;
    expect(within(card).getByText('Active')).toBeTruthy();
    expect(within(card).getByText('API key created')).toBeTruthy();
    expect(screen.queryByText(SECRET)).toBeNull();
  }, 20_000);

  it('shows an auto-disabled webhook with its last error, enables it, tests it and reads its log', async () => {
    let hook = makeWebhook({
      is_auto_disabled: true,
      consecutive_failures: 10,
      most_recent_failure_error_code: 503,
      most_recent_failure_timestamp: 1_760_000_000,
    });
    let tests = 0;
    const calls = stubWorkspaceApi({
      'GET /v1/workspace/webhooks': () => json({ webhooks: [hook] }),
      'PATCH /v1/workspace/webhooks/wh1': ({ body }) => {
        if ((body as { is_disabled?: boolean }).is_disabled === false) {
          hook = { ...hook, is_auto_disabled: false, consecutive_failures: 0 };
        }
        return json({ status: 'ok' });
      },
      'POST /v1/workspace/webhooks/wh1/test': () =>
        json(
          ++tests === 1
            ? { success: true, status_code: 200, error: null, duration_ms: 42 }
            : { success: false, status_code: 500, error: 'The receiver answered 500: boom', duration_ms: 12 },
        ),
      'GET /v1/workspace/webhooks/wh1/deliveries': () =>
        json({
          deliveries: [
            {
              delivery_id: 'd1',
              event_type: 'speech_to_text_transcription',
              attempt: 2,
              status: 'retrying',
              status_code: 503,
              error: 'The receiver answered 503.',
              duration_ms: 80,
              created_at_unix: 1_760_000_000,
            },
          ],
        }),
    });
    renderApp('/app/developers/webhooks');
    const card = (await screen.findByRole('heading', { name: /Transcripts/ }, { timeout: 5000 })).closest(
      'li',
    ) as HTMLElement;
    expect(within(card).getByText('Auto-disabled')).toBeTruthy();
    expect(within(card).getByRole('note').textContent).toMatch(
      /10 failed deliveries in a row \(last: HTTP 503/,
    );

    fireEvent.click(within(card).getByRole('button', { name: 'Enable Transcripts' }));
    await waitFor(() => expect(within(card).getByText('Active')).toBeTruthy());
    expect(callsTo(calls, 'PATCH /v1/workspace/webhooks/wh1')[0]?.body).toEqual({ is_disabled: false });

    fireEvent.click(within(card).getByRole('button', { name: 'Send test' }));
    expect(await within(card).findByText('Test delivered: HTTP 200 in 42 ms.')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Send test' }));
    expect(await within(card).findByText('Test failed: The receiver answered 500: boom')).toBeTruthy();

    const toggle = within(card).getByRole('button', { name: 'Show delivery log' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    const log = await within(card).findByRole('table', { name: /Delivery log of Transcripts/ });
    expect(within(log).getByText('speech_to_text_transcription')).toBeTruthy();
    expect(within(log).getByText('Will retry')).toBeTruthy();
    expect(within(log).getByText('503')).toBeTruthy();
  }, 20_000);

  it('edits and deletes a webhook after asking', async () => {
    let hooks = [makeWebhook()];
    const calls = stubWorkspaceApi({
      'GET /v1/workspace/webhooks': () => json({ webhooks: hooks }),
      'PATCH /v1/workspace/webhooks/wh1': ({ body }) => {
        hooks = [{ ...(hooks[0] as WorkspaceWebhookResponse), ...(body as object) }];
        return json({ status: 'ok' });
      },
      'DELETE /v1/workspace/webhooks/wh1': () => {
        hooks = [];
        return json({ status: 'ok' });
      },
    });
    renderApp('/app/developers/webhooks');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Transcripts' }, { timeout: 5000 }));
    const edit = await screen.findByRole('dialog', { name: 'Edit “Transcripts”' });
    fireEvent.change(within(edit).getByLabelText('Name'), { target: { value: 'All transcripts' } });
    fireEvent.click(within(edit).getByRole('checkbox', { name: /Transcription failed/ }));
    fireEvent.click(within(edit).getByRole('switch', { name: 'Retry failed deliveries' }));
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'PATCH /v1/workspace/webhooks/wh1')[0]?.body).toEqual({
      name: 'All transcripts',
      events: ['speech_to_text', 'transcription.failed'],
      retry_enabled: false,
    });
    expect(await screen.findByRole('heading', { name: /All transcripts/ })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Delete All transcripts' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete “All transcripts”?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete webhook' }));
    expect(await screen.findByText('No webhooks yet')).toBeTruthy();
    expect(callsTo(calls, 'DELETE /v1/workspace/webhooks/wh1')).toHaveLength(1);
  }, 20_000);

  it('shows a refused address under the URL field, focused and announced, at adding and at editing (issue 26)', async () => {
    const refusal = (loc: string[]) => {
      const message =
        "The webhook URL points at a private, loopback or reserved address (10.1.2.3). This server calls only public internet addresses unless whoever runs it allows private ones: if your receiver is on your own network, ask the server's operator to set WEBHOOK_ALLOW_PRIVATE_URLS=true.";
      return json(
        {
          detail: {
            status: 'invalid_request',
            message,
            errors: [{ loc, msg: message, type: 'value_error' }],
          },
        },
        422,
      );
    };
    stubWorkspaceApi({
      'GET /v1/workspace/webhooks': () => json({ webhooks: [makeWebhook()] }),
      'POST /v1/workspace/webhooks': () => refusal(['body', 'settings', 'webhook_url']),
      'PATCH /v1/workspace/webhooks/wh1': () => refusal(['body', 'webhook_url']),
    });
    renderApp('/app/developers/webhooks');
    const expectUrlRefused = async (dialog: HTMLElement) => {
      const url = within(dialog).getByLabelText('Endpoint URL');
      await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
      const note = document.getElementById(String(url.getAttribute('aria-describedby')).split(' ')[0] ?? '');
      expect(note?.getAttribute('role')).toBe('alert');
      expect(note?.textContent).toMatch(/ask the server's operator to set WEBHOOK_ALLOW_PRIVATE_URLS=true/);
      await waitFor(() => expect(document.activeElement).toBe(url));
      // Said once, under the field, not again at the foot of the form.
      expect(within(dialog).getAllByText(/WEBHOOK_ALLOW_PRIVATE_URLS/)).toHaveLength(1);
      // Typing another address clears it.
      fireEvent.change(url, { target: { value: 'https://example.com/other' } });
      expect(url.getAttribute('aria-invalid')).toBeNull();
    };

    fireEvent.click(await screen.findByRole('button', { name: 'Add webhook' }, { timeout: 5000 }));
    const add = await screen.findByRole('dialog', { name: 'Add webhook' });
    fireEvent.change(within(add).getByLabelText('Name'), { target: { value: 'Inside' } });
    fireEvent.change(within(add).getByLabelText('Endpoint URL'), {
      target: { value: 'http://10.1.2.3/hook' },
    });
    fireEvent.click(within(add).getByRole('button', { name: 'Add webhook' }));
    await expectUrlRefused(add);
    fireEvent.click(within(add).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Edit Transcripts' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit “Transcripts”' });
    fireEvent.change(within(edit).getByLabelText('Endpoint URL'), {
      target: { value: 'http://10.1.2.3/hook' },
    });
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await expectUrlRefused(edit);
  }, 20_000);

  it('shows members the list without actions, and the same page at the workspace and settings paths', async () => {
    stubWorkspaceApi({
      'GET /v1/workspace': () => json(makeWorkspaceSummary({ role: 'member', is_owner: false })),
      'GET /v1/workspace/webhooks': () => json({ webhooks: [makeWebhook({ is_disabled: true })] }),
    });
    renderApp('/app/workspace/webhooks');
    expect(
      await screen.findByText('Only workspace admins can add or change webhooks.', {}, { timeout: 5000 }),
    ).toBeTruthy();
    const card = screen.getByRole('heading', { name: /Transcripts/ }).closest('li') as HTMLElement;
    expect(within(card).getByText('Disabled')).toBeTruthy();
    expect(within(card).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add webhook' })).toBeNull();
  }, 20_000);

  it('offers a retry when the list cannot load', async () => {
    let fail = true;
    stubWorkspaceApi({
      'GET /v1/workspace/webhooks': () =>
        fail ? apiError(500, 'internal_error') : json({ webhooks: [makeWebhook()] }),
    });
    renderApp('/app/settings/webhooks');
    const retry = await screen.findByRole('button', { name: /try again/i }, { timeout: 8000 });
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByRole('heading', { name: /Transcripts/ })).toBeTruthy();
  }, 20_000);
});
