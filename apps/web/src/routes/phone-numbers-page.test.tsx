import type { PhoneNumberResponse } from '@parla/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeAgentSummary } from '../test/agents-fixture';
import { json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

afterEach(cleanUpWorkspaceTest);

const SID = `AC${'ab'.repeat(16)}`;
const TOKEN = 'twilio-token-never-shown';

function twilioNumber(overrides: Partial<PhoneNumberResponse> = {}): PhoneNumberResponse {
  return {
    provider: 'twilio',
    phone_number: '+14155550100',
    label: 'Support line',
    supports_inbound: true,
    supports_outbound: true,
    phone_number_id: 'phnum_1',
    assigned_agent: null,
    created_at_unix_secs: 1_700_000_000,
    ...overrides,
  } as PhoneNumberResponse;
}

describe('/app/conversational-ai/phone-numbers', () => {
  it('says what works offline, imports a Twilio number without showing its token, assigns an agent', async () => {
    let numbers: PhoneNumberResponse[] = [];
    const calls = stubWorkspaceApi({
      'GET /v1/convai/phone-numbers': () => json(numbers),
      'GET /v1/convai/agents': () =>
        json({
          agents: [makeAgentSummary({ agent_id: 'ag1', name: 'Front desk' })],
          next_cursor: null,
          has_more: false,
        }),
      'POST /v1/convai/phone-numbers': () => {
        numbers = [twilioNumber()];
        return json({ phone_number_id: 'phnum_1' });
      },
      'PATCH /v1/convai/phone-numbers/phnum_1': ({ body }) => {
        const agentId = (body as { agent_id: string | null }).agent_id;
        numbers = [
          twilioNumber({ assigned_agent: agentId ? { agent_id: agentId, agent_name: 'Front desk' } : null }),
        ];
        return json(numbers[0]);
      },
    });
    renderApp('/app/conversational-ai/phone-numbers');
    expect(await screen.findByText('No phone numbers yet', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/no SIP\/RTP media stack/)).toBeTruthy();
    expect(screen.getByText(/reachable from the internet/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Import your first number' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import a Twilio number' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import number' }));
    expect(within(dialog).getByText(/E\.164 form/)).toBeTruthy();
    expect(within(dialog).getByText(/starts with AC/)).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/convai/phone-numbers')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('Phone number'), {
      target: { value: '+1 (415) 555-0100' },
    });
    fireEvent.change(within(dialog).getByLabelText('Label'), { target: { value: 'Support line' } });
    fireEvent.change(within(dialog).getByLabelText('Account SID'), { target: { value: SID } });
    const token = within(dialog).getByLabelText('Auth token') as HTMLInputElement;
    expect(token.type).toBe('password');
    fireEvent.change(token, { target: { value: TOKEN } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import number' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'POST /v1/convai/phone-numbers')[0]?.body).toEqual({
      provider: 'twilio',
      phone_number: '+14155550100',
      label: 'Support line',
      sid: SID,
      token: TOKEN,
    });
    const list = await screen.findByRole('list', { name: 'Phone numbers' });
    expect(within(list).getByText('Support line')).toBeTruthy();
    expect(document.body.textContent).not.toContain(TOKEN);

    const select = within(list).getByLabelText('Agent for Support line') as HTMLSelectElement;
    await waitFor(() => expect(select.disabled).toBe(false));
    fireEvent.change(select, { target: { value: 'ag1' } });
    await waitFor(() =>
      expect(callsTo(calls, 'PATCH /v1/convai/phone-numbers/phnum_1')[0]?.body).toEqual({ agent_id: 'ag1' }),
    );
    await waitFor(() =>
      expect((within(list).getByLabelText('Agent for Support line') as HTMLSelectElement).value).toBe('ag1'),
    );
  }, 20_000);

  it('shows the error of a list that failed, and marks a SIP trunk as not calling here', async () => {
    let fail = true;
    stubWorkspaceApi({
      'GET /v1/convai/phone-numbers': () =>
        fail
          ? json({ detail: { status: 'internal_error', message: 'down' } }, 500)
          : json([
              {
                ...twilioNumber({ phone_number_id: 'phnum_2', label: 'Office trunk' }),
                provider: 'sip_trunk',
                provider_config: null,
                outbound_trunk: null,
                inbound_trunk: null,
                livekit_stack: 'standard',
                store_sip_messages: false,
              },
            ]),
      'GET /v1/convai/agents': () => json({ agents: [], next_cursor: null, has_more: false }),
    });
    renderApp('/app/conversational-ai/phone-numbers');
    const retry = await screen.findByRole('button', { name: /try again|retry/i }, { timeout: 5000 });
    fail = false;
    fireEvent.click(retry);
    const list = await screen.findByRole('list', { name: 'Phone numbers' });
    expect(within(list).getByText('SIP trunk · no calls here')).toBeTruthy();
  }, 20_000);
});
