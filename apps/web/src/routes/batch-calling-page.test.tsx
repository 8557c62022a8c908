import { type BatchCallDetailedResponse, NO_TERMS_AGREED } from '@parla/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeAgentSummary } from '../test/agents-fixture';
import { json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

afterEach(cleanUpWorkspaceTest);

const NUMBER = {
  provider: 'twilio',
  phone_number: '+14155550100',
  label: 'Support line',
  supports_inbound: true,
  supports_outbound: true,
  phone_number_id: 'phnum_1',
  assigned_agent: null,
  created_at_unix_secs: 1_700_000_000,
};

function batch(overrides: Partial<BatchCallDetailedResponse> = {}): BatchCallDetailedResponse {
  return {
    id: 'btcal_1',
    phone_number_id: 'phnum_1',
    phone_provider: 'twilio',
    name: 'Reminders',
    agent_id: 'ag1',
    agent_name: 'Front desk',
    created_at_unix: 1_700_000_000,
    scheduled_time_unix: 1_700_000_000,
    timezone: null,
    total_calls_dispatched: 2,
    total_calls_scheduled: 2,
    total_calls_finished: 1,
    last_updated_at_unix: 1_700_000_000,
    status: 'in_progress',
    retry_count: 0,
    telephony_call_config: { ringing_timeout_secs: null },
    target_concurrency_limit: null,
    recipients: [
      {
        id: 'r1',
        phone_number: '+14155550101',
        status: 'completed',
        created_at_unix: 1_700_000_000,
        updated_at_unix: 1_700_000_000,
        conversation_id: 'conv_1',
        error: null,
        conversation_initiation_client_data: null,
      },
      {
        id: 'r2',
        phone_number: '+14155550102',
        status: 'failed',
        created_at_unix: 1_700_000_000,
        updated_at_unix: 1_700_000_000,
        conversation_id: null,
        error: "Twilio refused the call: Invalid 'To' Phone Number",
        conversation_initiation_client_data: null,
      },
    ],
    ...overrides,
  };
}

const csvFile = (text: string) => new File([text], 'recipients.csv', { type: 'text/csv' });

describe('/app/conversational-ai/batch-calling', () => {
  it('submits a batch from a CSV, refusing a bad file first, and shows each call’s status', async () => {
    let batches: BatchCallDetailedResponse[] = [];
    const calls = stubWorkspaceApi({
      'GET /v1/convai/phone-numbers': () => json([NUMBER]),
      'GET /v1/convai/agents': () =>
        json({
          agents: [makeAgentSummary({ agent_id: 'ag1', name: 'Front desk' })],
          next_cursor: null,
          has_more: false,
        }),
      'GET /v1/convai/batch-calling/workspace': () =>
        json({ batch_calls: batches.map(({ recipients: _, ...b }) => b), next_doc: null, has_more: false }),
      'POST /v1/convai/batch-calling/submit': () => {
        batches = [batch()];
        const { recipients: _, ...created } = batch({ status: 'pending' });
        return json(created);
      },
      'GET /v1/convai/batch-calling/btcal_1': () => json(batch()),
      'POST /v1/user/agree-to-terms': () => json({ status: 'ok', terms_agreed_to: NO_TERMS_AGREED }),
    });
    renderApp('/app/conversational-ai/batch-calling');
    const form = await screen.findByRole('form', { name: 'New batch call' }, { timeout: 5000 });
    expect(screen.getByText('No batch calls yet. Submit one above.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Reminders' } });
    const file = within(form).getByLabelText('Recipients (CSV)');
    fireEvent.change(file, { target: { files: [csvFile('number\n+14155550101')] } });
    expect(await within(form).findByText('The first row must name a phone_number column.')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Submit batch' }));
    expect(await within(form).findByText('Correct the CSV file first.')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/convai/batch-calling/submit')).toHaveLength(0);

    fireEvent.change(file, {
      target: { files: [csvFile('phone_number,name\n+14155550101,Ada\n+14155550102,Bob\n')] },
    });
    expect(await within(form).findByText('2 recipients from recipients.csv')).toBeTruthy();
    // accounts §3 terms_agreed_to.batch_calling: agreed once, before the first batch.
    fireEvent.click(within(form).getByRole('button', { name: 'Submit batch' }));
    expect(
      await within(form).findByText('Confirm that the people you call agreed to be called.'),
    ).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/user/agree-to-terms')).toHaveLength(0);
    fireEvent.click(within(form).getByRole('checkbox', { name: /agreed to be called by an AI agent/ }));
    fireEvent.click(within(form).getByRole('button', { name: 'Submit batch' }));
    await waitFor(() =>
      expect(callsTo(calls, 'POST /v1/user/agree-to-terms')[0]?.body).toEqual({ terms: 'batch_calling' }),
    );
    await waitFor(() => expect(callsTo(calls, 'POST /v1/convai/batch-calling/submit')).toHaveLength(1));
    expect(callsTo(calls, 'POST /v1/convai/batch-calling/submit')[0]?.body).toMatchObject({
      call_name: 'Reminders',
      agent_id: 'ag1',
      agent_phone_number_id: 'phnum_1',
      recipients: [
        {
          phone_number: '+14155550101',
          conversation_initiation_client_data: { dynamic_variables: { name: 'Ada' } },
        },
        {
          phone_number: '+14155550102',
          conversation_initiation_client_data: { dynamic_variables: { name: 'Bob' } },
        },
      ],
    });
    const list = await screen.findByRole('list', { name: 'Batches' });
    expect(within(list).getByText('Reminders')).toBeTruthy();
    expect(
      within(list).getByRole('progressbar', { name: 'Progress of Reminders' }).getAttribute('aria-valuenow'),
    ).toBe('50');
    const recipients = await screen.findByRole('list', { name: 'Calls of Reminders' });
    expect(within(recipients).getByText('completed')).toBeTruthy();
    expect(within(recipients).getByText(/Invalid 'To' Phone Number/)).toBeTruthy();
  }, 20_000);

  it('says what is missing when there is no Twilio number to call from', async () => {
    stubWorkspaceApi({
      'GET /v1/convai/phone-numbers': () => json([]),
      'GET /v1/convai/agents': () =>
        json({
          agents: [makeAgentSummary({ agent_id: 'ag1', name: 'Front desk' })],
          next_cursor: null,
          has_more: false,
        }),
      'GET /v1/convai/batch-calling/workspace': () =>
        json({ batch_calls: [], next_doc: null, has_more: false }),
    });
    renderApp('/app/conversational-ai/batch-calling');
    expect(await screen.findByText('Nothing to call with yet', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/Import a Twilio number on the Phone numbers page first/)).toBeTruthy();
  }, 20_000);
});
