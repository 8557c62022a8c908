import {
  type ConvAiDailyAnalytics,
  type ConvAiSettings,
  type StoredSecret,
  WorkspaceWebhookResponse,
} from '@parla/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSecret } from '../test/agents-fixture';
import { apiError, json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

afterEach(cleanUpWorkspaceTest);

const VALUE = 'sk_live_never_shown';

function makeSettings(overrides: Partial<ConvAiSettings> = {}): ConvAiSettings {
  return {
    conversation_initiation_client_data_webhook: null,
    webhooks: {
      post_call_webhook_id: null,
      events: ['transcript'],
      transcript_format: 'json',
      exclude_transcript: false,
      send_audio: false,
    },
    can_use_mcp_servers: false,
    rag_retention_period_days: 10,
    conversation_embedding_retention_days: null,
    default_livekit_stack: 'standard',
    notes: {},
    ...overrides,
  };
}

const webhook = (webhook_id: string, name: string) =>
  WorkspaceWebhookResponse.parse({
    name,
    webhook_id,
    webhook_url: `https://example.com/${webhook_id}`,
    is_disabled: false,
    is_auto_disabled: false,
    created_at_unix: 1_750_000_000,
    auth_type: 'hmac',
    events: ['post_call_transcription'],
    retry_enabled: true,
    consecutive_failures: 0,
    request_header_names: [],
  });

/** The last `n` UTC days, oldest first, with these conversation counts. */
function days(counts: number[]): ConvAiDailyAnalytics['days'] {
  const today = Date.UTC(2026, 10, 29);
  return counts.map((conversations, i) => ({
    date: new Date(today - (counts.length - 1 - i) * 86_400_000).toISOString().slice(0, 10),
    conversations,
    minutes: conversations * 2,
  }));
}

/** The overview's and settings' calls, answered plainly (the secrets test's page loads them too). */
const quietApi = {
  'GET /v1/convai/settings': () => json(makeSettings()),
  'GET /v1/convai/analytics/live-count': () => json({ count: 0 }),
  'GET /v1/convai/analytics/daily': () => json({ days: days(Array(14).fill(0)), charts: [] }),
  'GET /v1/workspace/webhooks': () => json({ webhooks: [] }),
};

describe('/app/conversational-ai/settings', () => {
  it('adds a secret without ever showing its value, replaces it, and deletes it after asking', async () => {
    let secrets: StoredSecret[] = [];
    const calls = stubWorkspaceApi({
      ...quietApi,
      'GET /v1/convai/secrets': () => json({ secrets, next_cursor: null }),
      'POST /v1/convai/secrets': ({ body }) => {
        const { name } = body as { name: string };
        secrets = [makeSecret({ secret_id: 'sec1', name })];
        return json({ type: 'stored', secret_id: 'sec1', name });
      },
      'PATCH /v1/convai/secrets/sec1': ({ body }) => {
        const { name } = body as { name: string };
        return json({ type: 'stored', secret_id: 'sec1', name });
      },
      'DELETE /v1/convai/secrets/sec1': () => {
        secrets = [];
        return json({ status: 'ok' });
      },
    });
    renderApp('/app/conversational-ai/settings');
    expect(await screen.findByText('No secrets yet', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add your first secret' }));
    let dialog = await screen.findByRole('dialog', { name: 'New secret' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add secret' }));
    expect(within(dialog).getByText('Give the secret a name.')).toBeTruthy();
    expect(within(dialog).getByText('Enter the secret’s value.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Orders key' } });
    const value = within(dialog).getByLabelText('Value') as HTMLInputElement;
    expect(value.type).toBe('password');
    fireEvent.change(value, { target: { value: VALUE } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add secret' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'POST /v1/convai/secrets')[0]?.body).toEqual({
      type: 'new',
      name: 'Orders key',
      value: VALUE,
    });
    const list = await screen.findByRole('list', { name: 'Secrets' });
    expect(within(list).getByText('Orders key')).toBeTruthy();
    expect(document.body.textContent).not.toContain(VALUE);

    fireEvent.click(within(list).getByRole('button', { name: 'Replace Orders key' }));
    dialog = await screen.findByRole('dialog', { name: 'Replace Orders key' });
    expect((within(dialog).getByLabelText('New value') as HTMLInputElement).value).toBe('');
    fireEvent.change(within(dialog).getByLabelText('New value'), { target: { value: 'sk_2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Replace value' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'PATCH /v1/convai/secrets/sec1')[0]?.body).toEqual({
      type: 'update',
      name: 'Orders key',
      value: 'sk_2',
    });

    fireEvent.click(within(list).getByRole('button', { name: 'Delete Orders key' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Orders key?' })).getByRole('button', {
        name: 'Delete secret',
      }),
    );
    expect(await screen.findByText('No secrets yet')).toBeTruthy();
  }, 20_000);

  it('shows the overview: conversations in progress, per day, and the dashboard charts; or says there are none', async () => {
    let quiet = false;
    stubWorkspaceApi({
      ...quietApi,
      'GET /v1/convai/secrets': () => json({ secrets: [], next_cursor: null }),
      'GET /v1/convai/analytics/live-count': () => json({ count: quiet ? 0 : 3 }),
      'GET /v1/convai/analytics/daily': ({ query }) => {
        expect(query.get('days')).toBe('14');
        return json(
          quiet
            ? { days: days(Array(14).fill(0)), charts: [] }
            : {
                days: days([...Array(12).fill(0), 4, 1]),
                charts: [
                  {
                    type: 'call_success',
                    name: 'Calls that worked',
                    id: null,
                    analysed: 4,
                    success: 3,
                    failure: 1,
                    unknown: 0,
                    collected: 0,
                  },
                  {
                    type: 'data_collection',
                    name: 'Order number',
                    id: 'order',
                    analysed: 4,
                    success: 0,
                    failure: 0,
                    unknown: 0,
                    collected: 2,
                  },
                ],
              },
        );
      },
    });
    renderApp('/app/conversational-ai/settings');
    expect((await screen.findByTestId('live-count', {}, { timeout: 5000 })).textContent).toBe('3');
    const overview = screen.getByRole('region', { name: 'Overview' });
    // 5 conversations and 10 minutes over the fortnight.
    expect(within(overview).getByText('5')).toBeTruthy();
    expect(within(overview).getByText('10')).toBeTruthy();
    const table = within(overview).getByRole('table', { name: 'Conversations and minutes per day' });
    expect(within(table).getAllByRole('row')).toHaveLength(15);
    const charts = within(overview).getByRole('list', { name: 'Dashboard charts' });
    expect(within(charts).getByText('75%')).toBeTruthy();
    expect(within(charts).getByText('3 succeeded, 1 failed, 0 unknown of 4 analysed.')).toBeTruthy();
    expect(within(charts).getByText('Collected in 2 of 4 analysed conversations.')).toBeTruthy();

    cleanup();
    quiet = true;
    renderApp('/app/conversational-ai/settings');
    expect(
      await screen.findByText(/No conversations in the last 14 days/, {}, { timeout: 5000 }),
    ).toBeTruthy();
  }, 20_000);

  it('saves the initiation webhook with a secret header, the post-call webhook and retention; checks before sending', async () => {
    let kept = makeSettings();
    const calls = stubWorkspaceApi({
      ...quietApi,
      'GET /v1/convai/secrets': () =>
        json({ secrets: [makeSecret({ secret_id: 'sec1', name: 'Init key' })], next_cursor: null }),
      'GET /v1/workspace/webhooks': () =>
        json({ webhooks: [webhook('wh1', 'Transcripts'), webhook('wh2', 'CRM')] }),
      'GET /v1/convai/settings': () => json(kept),
      'PATCH /v1/convai/settings': ({ body }) => {
        const patch = body as {
          conversation_initiation_client_data_webhook: ConvAiSettings['conversation_initiation_client_data_webhook'];
          webhooks: { post_call_webhook_id: string | null; exclude_transcript: boolean };
          rag_retention_period_days: number;
        };
        if (patch.rag_retention_period_days === 7)
          return apiError(422, 'invalid_request', 'The host api.example.invalid could not be found.');
        kept = makeSettings({
          conversation_initiation_client_data_webhook: patch.conversation_initiation_client_data_webhook,
          webhooks: { ...kept.webhooks, ...patch.webhooks },
          rag_retention_period_days: patch.rag_retention_period_days,
        });
        return json(kept);
      },
    });
    renderApp('/app/conversational-ai/settings');
    const form = (await screen.findByRole('button', { name: 'Save settings' }, { timeout: 5000 })).closest(
      'form',
    ) as HTMLFormElement;
    const ui = within(form);
    fireEvent.change(ui.getByLabelText('Webhook URL'), { target: { value: 'ftp://example.com/start' } });
    fireEvent.click(ui.getByRole('button', { name: 'Save settings' }));
    expect((await ui.findByRole('alert')).textContent).toMatch(/The URL must be an http\(s\) URL/);
    expect(callsTo(calls, 'PATCH /v1/convai/settings')).toHaveLength(0);

    fireEvent.change(ui.getByLabelText('Webhook URL'), {
      target: { value: 'https://api.example.com/start' },
    });
    fireEvent.click(ui.getByRole('button', { name: 'Add header' }));
    fireEvent.change(ui.getByLabelText('Header 1 name'), { target: { value: 'Authorization' } });
    await waitFor(() => expect(ui.getByRole('option', { name: 'Secret: Init key' })).toBeTruthy());
    fireEvent.change(ui.getByLabelText('Header 1 source'), { target: { value: 'sec1' } });
    fireEvent.click(ui.getByRole('button', { name: 'Add header' }));
    fireEvent.change(ui.getByLabelText('Header 2 name'), { target: { value: 'X-Shop' } });
    fireEvent.change(ui.getByLabelText('Header 2 value'), { target: { value: 'north' } });
    await waitFor(() => expect(ui.getByRole('option', { name: 'CRM' })).toBeTruthy());
    fireEvent.change(ui.getByLabelText('Post-call webhook'), { target: { value: 'wh2' } });
    fireEvent.change(ui.getByLabelText('RAG index retention (days)'), { target: { value: '31' } });
    fireEvent.click(ui.getByRole('button', { name: 'Save settings' }));
    expect((await ui.findByRole('alert')).textContent).toMatch(/1 to 30 days/);
    expect(callsTo(calls, 'PATCH /v1/convai/settings')).toHaveLength(0);

    // The server's refusal is shown in the form, and nothing is lost.
    fireEvent.change(ui.getByLabelText('RAG index retention (days)'), { target: { value: '7' } });
    fireEvent.click(ui.getByRole('button', { name: 'Save settings' }));
    expect((await ui.findByRole('alert')).textContent).toMatch(/could not be found/);
    expect((ui.getByLabelText('Webhook URL') as HTMLInputElement).value).toBe(
      'https://api.example.com/start',
    );

    fireEvent.change(ui.getByLabelText('RAG index retention (days)'), { target: { value: '20' } });
    fireEvent.click(ui.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(callsTo(calls, 'PATCH /v1/convai/settings')).toHaveLength(2));
    expect(callsTo(calls, 'PATCH /v1/convai/settings')[1]?.body).toEqual({
      conversation_initiation_client_data_webhook: {
        url: 'https://api.example.com/start',
        request_headers: { Authorization: { secret_id: 'sec1' }, 'X-Shop': 'north' },
      },
      webhooks: { post_call_webhook_id: 'wh2', exclude_transcript: false },
      rag_retention_period_days: 20,
    });
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    expect(ui.queryByRole('alert')).toBeNull();
    expect((ui.getByLabelText('Post-call webhook') as HTMLSelectElement).value).toBe('wh2');
    // The secret header shows as the secret, never as a value.
    expect(ui.getByText('Sent from the secret')).toBeTruthy();
  }, 30_000);
});
