import { SIP_TRUNK_UNSUPPORTED_MESSAGE, tierLimits } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTwilio, parseStreamTwiml, startFakeTwilio, TwilioCallee } from '../../test/fake-twilio';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { type ScriptedLlm, startScriptedLlm } from '../../test/scripted-llm';
import { newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { fliteSpeech } from '../../test/test-signals';
import { dispatchBatchCalls } from './batch-calls';
import { phoneNumbers } from './telephony.tables';

/*
 * Phone numbers and Twilio calls (issue 28, phone numbers) against the real app, a local Twilio stand-in
 * (its REST API records the call request; answering runs the TwiML and speaks the Media Streams protocol
 * with μ-law audio, as Twilio does) and the scripted LLM: the SDK's phoneNumbers calls, an outbound call
 * placed through Twilio whose stream is a conversation (the agent greets, hears a spoken question, answers,
 * stops on a barge-in) kept in history with its `phone_call` metadata; registered calls; bad input refused.
 */

const SID = `AC${'a1'.repeat(16)}`;
const TOKEN = 'twilio-auth-token-123456';
const AGENT_NUMBER = '+14155550100';
const CALLEE = '+14155550199';

let t: TestApp;
let llm: ScriptedLlm;
let twilio: FakeTwilio;
let baseUrl: string;
let a: SpeechAccount;
let b: SpeechAccount;
let agentId: string;
let numberId: string;

beforeAll(async () => {
  llm = await startScriptedLlm();
  twilio = await startFakeTwilio({ [SID]: TOKEN });
  t = await createTestApp({
    env: {
      ENGINE_POOL_SIZE: '2',
      ENGINE_TIMEOUT_MS: '60000',
      LLM_PROVIDER: 'openai',
      LLM_OPENAI_URL: llm.url,
      LLM_OPENAI_MODEL: 'scripted-model',
      TWILIO_API_URL: twilio.url,
    },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  a = await newSpeechAccount(t.app, baseUrl);
  b = await newSpeechAccount(t.app, baseUrl);
  const agent = await a.sdk.conversationalAi.agents.create({
    name: 'Phone shop assistant',
    conversationConfig: {
      agent: {
        firstMessage: 'Hello, you called the shop.',
        prompt: { prompt: 'You answer the phone of a small shop.' },
      },
      tts: { modelId: 'eleven_flash_v2' },
    },
  });
  agentId = agent.agentId;
  const created = await a.sdk.conversationalAi.phoneNumbers.create({
    provider: 'twilio',
    phoneNumber: AGENT_NUMBER,
    label: 'Shop line',
    sid: SID,
    token: TOKEN,
  });
  numberId = created.phoneNumberId;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await llm?.close();
  await twilio?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (check: () => boolean, ms = 30_000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('timed out');
    await sleep(20);
  }
};

/** A call made through the API: asserted on the stand-in, and answered by its callee. */
async function placeCall(account: SpeechAccount, clientData?: Record<string, unknown>) {
  const before = twilio.calls.length;
  const placed = await account.sdk.conversationalAi.twilio.outboundCall({
    agentId,
    agentPhoneNumberId: numberId,
    toNumber: CALLEE,
    ...(clientData ? { conversationInitiationClientData: clientData } : {}),
  });
  expect(twilio.calls.length).toBe(before + 1);
  const request = twilio.calls.at(-1);
  if (!request || !placed.callSid) throw new Error('no call');
  return { placed, request, callee: twilio.answer(request.params.Twiml ?? '', placed.callSid, SID) };
}

describe('phone numbers, with the official client', () => {
  it('imports a Twilio number and a SIP trunk, lists, reads, assigns an agent, never answers the token', async () => {
    const number = await a.sdk.conversationalAi.phoneNumbers.get(numberId);
    expect(number).toMatchObject({
      provider: 'twilio',
      phoneNumber: AGENT_NUMBER,
      label: 'Shop line',
      phoneNumberId: numberId,
      supportsInbound: true,
      supportsOutbound: true,
    });
    const raw = await fetch(`${baseUrl}/v1/convai/phone-numbers/${numberId}`, {
      headers: { 'xi-api-key': a.key },
    });
    const text = await raw.text();
    expect(text).not.toContain(TOKEN);
    const [row] = await t.deps.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, numberId));
    expect(row?.twilioTokenSealed).toMatch(/^v1\./);
    expect(row?.twilioTokenSealed).not.toContain(TOKEN);

    const sip = await a.sdk.conversationalAi.phoneNumbers.create({
      provider: 'sip_trunk',
      phoneNumber: '+14155550111',
      label: 'Office trunk',
      outboundTrunkConfig: {
        address: 'sip.example.com',
        transport: 'tls',
        credentials: { username: 'parla', password: 'trunk-password-1' },
      },
      inboundTrunkConfig: { allowedAddresses: ['203.0.113.0/24'] },
    });
    const trunk = await a.sdk.conversationalAi.phoneNumbers.get(sip.phoneNumberId);
    expect(trunk).toMatchObject({
      provider: 'sip_trunk',
      outboundTrunk: {
        address: 'sip.example.com',
        transport: 'tls',
        hasAuthCredentials: true,
        username: 'parla',
      },
      inboundTrunk: { allowedAddresses: ['203.0.113.0/24'] },
    });
    expect(JSON.stringify(trunk)).not.toContain('trunk-password-1');

    const assigned = await a.sdk.conversationalAi.phoneNumbers.update(numberId, { agentId });
    expect(assigned.assignedAgent).toMatchObject({ agentId, agentName: 'Phone shop assistant' });
    const list = await a.sdk.conversationalAi.phoneNumbers.list();
    expect(list.map((n) => n.phoneNumberId)).toEqual([sip.phoneNumberId, numberId]);
    expect(
      (await a.sdk.conversationalAi.phoneNumbers.list({ provider: 'twilio' })).map((n) => n.phoneNumber),
    ).toEqual([AGENT_NUMBER]);
    // Unassigned with null.
    const patched = await fetch(`${baseUrl}/v1/convai/phone-numbers/${numberId}`, {
      method: 'PATCH',
      headers: { 'xi-api-key': a.key, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: null }),
    });
    expect(((await patched.json()) as { assigned_agent: unknown }).assigned_agent).toBeNull();
    await a.sdk.conversationalAi.phoneNumbers.delete(sip.phoneNumberId);
    await expect(a.sdk.conversationalAi.phoneNumbers.get(sip.phoneNumberId)).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('refuses bad numbers, SIDs, duplicates and another workspace’s agent or number, changing nothing', async () => {
    const post = (account: SpeechAccount, body: unknown) =>
      fetch(`${baseUrl}/v1/convai/phone-numbers`, {
        method: 'POST',
        headers: { 'xi-api-key': account.key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const good = { provider: 'twilio', phone_number: '+14155550122', label: 'x', sid: SID, token: TOKEN };
    const cases: [unknown, number, string][] = [
      [{ ...good, phone_number: '415-555-0122' }, 422, 'E.164'],
      [{ ...good, sid: 'nope' }, 422, 'account SID'],
      [{ ...good, provider: 'exotel' }, 422, ''],
      [{ ...good, phone_number: AGENT_NUMBER }, 409, 'already has'],
      [{ ...good, agent_id: 'agent_of_nobody' }, 404, 'agent'],
    ];
    for (const [body, status, says] of cases) {
      const response = await post(a, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      const error = (await response.json()) as { detail: { message: string } };
      expect(JSON.stringify(error.detail)).toContain(says);
    }
    // B: A's agent is not found, A's number is not found (read, change, delete, call from).
    expect((await post(b, { ...good, agent_id: agentId })).status).toBe(404);
    await expect(b.sdk.conversationalAi.phoneNumbers.get(numberId)).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(
      b.sdk.conversationalAi.phoneNumbers.update(numberId, { label: 'Stolen' }),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(b.sdk.conversationalAi.phoneNumbers.delete(numberId)).rejects.toMatchObject({
      statusCode: 404,
    });
    const before = twilio.calls.length;
    await expect(
      b.sdk.conversationalAi.twilio.outboundCall({ agentId, agentPhoneNumberId: numberId, toNumber: CALLEE }),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect(twilio.calls.length).toBe(before);
    expect((await b.sdk.conversationalAi.phoneNumbers.list()).length).toBe(0);
    expect((await a.sdk.conversationalAi.phoneNumbers.get(numberId)).label).toBe('Shop line');
  });
});

describe('calls through Twilio', () => {
  it('places the call with the number’s credentials and TwiML that streams it back here', async () => {
    llm.respondWith(() => ({ text: 'Goodbye.' }));
    const { placed, request, callee } = await placeCall(a);
    expect(placed).toMatchObject({ success: true, conversationId: undefined });
    expect(placed.callSid).toMatch(/^CA/);
    expect(request).toMatchObject({
      accountSid: SID,
      auth: { user: SID, password: TOKEN },
      params: { To: CALLEE, From: AGENT_NUMBER },
    });
    const stream = parseStreamTwiml(request.params.Twiml ?? '');
    expect(stream.url).toBe(`${baseUrl.replace('http', 'ws')}/v1/convai/twilio/media-stream`);
    expect(stream.parameters.call_token).toMatch(/^pct_[0-9a-f]{48}$/);
    // The callee picks up: the agent's greeting arrives as μ-law media, with marks after each piece.
    await callee.opened;
    await until(() => callee.heardSamples > 8000 * 0.8);
    expect(callee.of('mark').length).toBeGreaterThan(0);
    const loud = callee.heard.some((piece) => piece.samples.some((s) => Math.abs(s) > 2000));
    expect(loud).toBe(true);
    callee.hangUp();
    await callee.closed;

    // The token opened this call once: a second stream with it is refused, and no conversation starts.
    const again = new TwilioCallee(stream, placed.callSid ?? '', SID);
    expect((await again.closed).code).toBe(1008);
    expect(again.of('media')).toEqual([]);
  }, 60_000);

  it('refuses a stream without a call of this server', async () => {
    const stranger = new TwilioCallee(
      {
        url: `${baseUrl.replace('http', 'ws')}/v1/convai/twilio/media-stream`,
        parameters: { call_token: 'pct_forged' },
      },
      'CA1',
      SID,
    );
    expect((await stranger.closed).code).toBe(1008);
    const garbage = new TwilioCallee(
      { url: `${baseUrl.replace('http', 'ws')}/v1/convai/twilio/media-stream`, parameters: {} },
      'CA2',
      SID,
    );
    await garbage.opened;
    garbage.ws.send('not json');
    expect((await garbage.closed).code).toBe(1008);
    // The process is still up.
    expect((await fetch(`${baseUrl}/health`)).status).toBeLessThan(600);
  });

  it('says what Twilio refused: wrong credentials, unreachable Twilio; the SIP trunk is refused plainly', async () => {
    const wrong = await a.sdk.conversationalAi.phoneNumbers.create({
      provider: 'twilio',
      phoneNumber: '+14155550133',
      label: 'Wrong token',
      sid: SID,
      token: 'not-the-right-token',
    });
    const refused = await fetch(`${baseUrl}/v1/convai/twilio/outbound-call`, {
      method: 'POST',
      headers: { 'xi-api-key': a.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        agent_id: agentId,
        agent_phone_number_id: wrong.phoneNumberId,
        to_number: CALLEE,
      }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: { message: string } }).detail.message).toContain(
      'Twilio refused the phone number’s account SID and auth token'.replace('’', "'"),
    );
    const sip = await a.sdk.conversationalAi.phoneNumbers.create({
      provider: 'sip_trunk',
      phoneNumber: '+14155550144',
      label: 'Trunk',
      outboundTrunkConfig: { address: 'sip.example.com' },
    });
    const viaSip = await fetch(`${baseUrl}/v1/convai/sip-trunk/outbound-call`, {
      method: 'POST',
      headers: { 'xi-api-key': a.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        agent_id: agentId,
        agent_phone_number_id: sip.phoneNumberId,
        to_number: CALLEE,
      }),
    });
    expect(viaSip.status).toBe(400);
    expect(((await viaSip.json()) as { detail: { message: string } }).detail.message).toBe(
      SIP_TRUNK_UNSUPPORTED_MESSAGE,
    );
    // A Twilio that cannot be reached: a 503 that says so.
    const offline = await createTestApp({ env: { TWILIO_API_URL: 'http://127.0.0.1:9' } });
    try {
      const account = await newSpeechAccount(offline.app, 'http://127.0.0.1:1');
      const make = (url: string, body: unknown) =>
        offline.app.inject({
          method: 'POST',
          url,
          headers: { 'xi-api-key': account.key },
          payload: body as Record<string, unknown>,
        });
      const agent = await make('/v1/convai/agents/create', { conversation_config: {} });
      const number = await make('/v1/convai/phone-numbers', {
        provider: 'twilio',
        phone_number: AGENT_NUMBER,
        label: 'x',
        sid: SID,
        token: TOKEN,
      });
      const call = await make('/v1/convai/twilio/outbound-call', {
        agent_id: agent.json().agent_id,
        agent_phone_number_id: number.json().phone_number_id,
        to_number: CALLEE,
      });
      expect(call.statusCode).toBe(503);
      expect(call.json().detail.message).toContain('Twilio could not be reached');
    } finally {
      await offline.close();
    }
  }, 60_000);

  it('registers a call from the operator’s own Twilio webhook and answers TwiML for it', async () => {
    const twiml = await a.sdk.conversationalAi.twilio.registerCall({
      agentId,
      fromNumber: CALLEE,
      toNumber: AGENT_NUMBER,
      direction: 'inbound',
    });
    const stream = parseStreamTwiml(twiml);
    expect(stream.url).toBe(`${baseUrl.replace('http', 'ws')}/v1/convai/twilio/media-stream`);
    const callee = new TwilioCallee(stream, 'CA00000000000000000000000000000077', SID);
    await until(() => callee.heardSamples > 4000);
    callee.hangUp();
    await callee.closed;
    await expect
      .poll(
        async () => {
          const list = await a.sdk.conversationalAi.conversations.list({ agentId });
          for (const summary of list.conversations) {
            const detail = await a.sdk.conversationalAi.conversations.get(summary.conversationId);
            const phone = detail.metadata.phoneCall;
            if (phone?.callSid === 'CA00000000000000000000000000000077') return phone;
          }
          return undefined;
        },
        { timeout: 20_000 },
      )
      .toMatchObject({
        type: 'twilio',
        direction: 'inbound',
        phoneNumberId: numberId,
        agentNumber: AGENT_NUMBER,
        externalNumber: CALLEE,
      });
  }, 60_000);
});

describe('a spoken phone call', () => {
  const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad');
  it('greets, hears the callee’s question in μ-law, answers, stops at a barge-in, and is kept with phone_call', async (context) => {
    skipWithout(context, noModel);
    llm.respondWith(() => ({
      text: 'We open at nine in the morning. We close at six in the evening, every day but Sunday.',
    }));
    const { placed, callee } = await placeCall(a, { dynamicVariables: { customer: 'Ada' } });
    await callee.opened;
    // The greeting plays out (~2 s) before the callee speaks.
    await until(() => callee.heardSamples > 8000);
    let seen = -1;
    while (seen !== callee.heardSamples) {
      seen = callee.heardSamples;
      await sleep(400);
    }
    const question = await fliteSpeech('slt', 'What time do you open in the morning?');
    const silence = new Int16Array(question.sampleRate);
    await callee.say(question.samples, question.sampleRate, 5);
    await callee.say(silence, question.sampleRate, 5);
    const greeting = callee.heardSamples;
    // The answer arrives as speech…
    await until(() => callee.heardSamples > greeting + 8000, 60_000);
    // …and the callee talks over it: Parla clears what Twilio has not played.
    await callee.say(question.samples, question.sampleRate, 5);
    await until(() => callee.of('clear').length > 0, 30_000);
    callee.hangUp();
    await callee.closed;

    let id = '';
    await expect
      .poll(
        async () => {
          const list = await a.sdk.conversationalAi.conversations.list({ agentId });
          for (const summary of list.conversations) {
            const detail = await a.sdk.conversationalAi.conversations.get(summary.conversationId);
            const phone = detail.metadata.phoneCall;
            if (phone?.callSid === placed.callSid && detail.status === 'done') {
              id = detail.conversationId;
              return phone;
            }
          }
          return undefined;
        },
        { timeout: 30_000 },
      )
      .toMatchObject({
        type: 'twilio',
        direction: 'outbound',
        phoneNumberId: numberId,
        agentNumber: AGENT_NUMBER,
        externalNumber: CALLEE,
        streamSid: callee.streamSid,
      });
    const kept = await a.sdk.conversationalAi.conversations.get(id);
    expect(kept.transcript[0]).toMatchObject({ role: 'agent', message: 'Hello, you called the shop.' });
    const user = kept.transcript.find((turn) => turn.role === 'user');
    expect(user?.message?.toLowerCase()).toContain('open');
    expect(kept.transcript.some((turn) => turn.role === 'agent' && turn.message?.includes('nine'))).toBe(
      true,
    );
    // The call's data reached the conversation, with the phone's own variables.
    expect(kept.conversationInitiationClientData?.dynamicVariables).toMatchObject({
      customer: 'Ada',
      system__called_number: CALLEE,
      system__call_sid: placed.callSid,
    });
    expect(kept.hasAudio).toBe(true);
  }, 120_000);
});

describe('batch calls', () => {
  const numbers = (n: number, from: number) =>
    Array.from({ length: n }, (_, i) => ({ phoneNumber: `+1415555${String(from + i).padStart(4, '0')}` }));

  it('places the calls at most as many at once as asked, follows each call, and completes', async () => {
    llm.respondWith(() => ({ text: 'Goodbye.' }));
    const batch = await a.sdk.conversationalAi.batchCalls.create({
      callName: 'Reminders',
      agentId,
      agentPhoneNumberId: numberId,
      recipients: [{ phoneNumber: '+19995550000' }, ...numbers(3, 1000)],
      targetConcurrencyLimit: 2,
    });
    expect(batch).toMatchObject({
      name: 'Reminders',
      status: 'pending',
      totalCallsScheduled: 4,
      agentName: 'Phone shop assistant',
    });
    const before = twilio.calls.length;
    expect(await dispatchBatchCalls(t.deps)).toBe(2);
    // Two ringing: the concurrency is reached; the bad number was refused by Twilio and does not count.
    expect(twilio.calls.slice(before).map((c) => c.params.To)).toEqual([
      '+19995550000',
      '+14155551000',
      '+14155551001',
    ]);
    let detail = await a.sdk.conversationalAi.batchCalls.get(batch.id);
    expect(detail.status).toBe('in_progress');
    expect(detail.recipients.map((r) => r.status)).toEqual(['failed', 'initiated', 'initiated', 'pending']);
    const refused = await fetch(`${baseUrl}/v1/convai/batch-calling/${batch.id}`, {
      headers: { 'xi-api-key': a.key },
    });
    const recipients = ((await refused.json()) as { recipients: { error: string | null }[] }).recipients;
    expect(recipients[0]?.error).toContain("Invalid 'To' Phone Number");
    expect(await dispatchBatchCalls(t.deps)).toBe(0);

    // The first callee answers, hears the greeting and hangs up: its recipient is completed, the next is called.
    const first = twilio.calls[before + 1];
    const callee = twilio.answer(first?.params.Twiml ?? '', 'CA00000000000000000000000000000101', SID);
    await until(() => callee.heardSamples > 4000);
    detail = await a.sdk.conversationalAi.batchCalls.get(batch.id);
    expect(detail.recipients[1]?.status).toBe('in_progress');
    expect(detail.recipients[1]?.conversationId).toMatch(/^conv_/);
    callee.hangUp();
    await callee.closed;
    await expect
      .poll(async () => (await a.sdk.conversationalAi.batchCalls.get(batch.id)).recipients[1]?.status)
      .toBe('completed');
    expect(await dispatchBatchCalls(t.deps)).toBe(1);
    expect(twilio.calls.at(-1)?.params.To).toBe('+14155551002');
    const list = await a.sdk.conversationalAi.batchCalls.list();
    expect(list.batchCalls.map((b) => b.id)).toContain(batch.id);
    await expect(b.sdk.conversationalAi.batchCalls.get(batch.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(b.sdk.conversationalAi.batchCalls.cancel(batch.id)).rejects.toMatchObject({
      statusCode: 404,
    });
  }, 60_000);

  it('never places more at once than the plan’s concurrent conversations; cancel, retry, schedule, delete', async () => {
    const limit = tierLimits.free.conversationalConcurrency;
    const batch = await a.sdk.conversationalAi.batchCalls.create({
      callName: 'Survey',
      agentId,
      agentPhoneNumberId: numberId,
      recipients: numbers(limit + 2, 2000),
      targetConcurrencyLimit: 100,
    });
    expect(await dispatchBatchCalls(t.deps)).toBe(limit);
    const cancelled = await a.sdk.conversationalAi.batchCalls.cancel(batch.id);
    expect(cancelled.status).toBe('cancelled');
    let detail = await a.sdk.conversationalAi.batchCalls.get(batch.id);
    expect(detail.recipients.filter((r) => r.status === 'cancelled')).toHaveLength(2);
    expect(await dispatchBatchCalls(t.deps)).toBe(0);
    const retried = await a.sdk.conversationalAi.batchCalls.retry(batch.id);
    expect(retried).toMatchObject({ status: 'pending', retryCount: 1 });
    detail = await a.sdk.conversationalAi.batchCalls.get(batch.id);
    expect(detail.recipients.filter((r) => r.status === 'pending')).toHaveLength(2);
    await a.sdk.conversationalAi.batchCalls.delete(batch.id);
    await expect(a.sdk.conversationalAi.batchCalls.get(batch.id)).rejects.toMatchObject({ statusCode: 404 });

    // Scheduled for later: nothing is placed before its time.
    const later = await a.sdk.conversationalAi.batchCalls.create({
      callName: 'Tomorrow',
      agentId,
      agentPhoneNumberId: numberId,
      recipients: numbers(1, 3000),
      scheduledTimeUnix: Math.floor(Date.now() / 1000) + 86_400,
    });
    const placedBefore = twilio.calls.length;
    await dispatchBatchCalls(t.deps);
    expect(twilio.calls.slice(placedBefore).map((c) => c.params.To)).not.toContain('+14155553000');
    expect((await a.sdk.conversationalAi.batchCalls.get(later.id)).status).toBe('pending');
    await a.sdk.conversationalAi.batchCalls.delete(later.id);
  }, 60_000);

  it('refuses duplicates, no recipients, and a SIP trunk number', async () => {
    const post = (body: unknown) =>
      fetch(`${baseUrl}/v1/convai/batch-calling/submit`, {
        method: 'POST',
        headers: { 'xi-api-key': a.key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const base = { call_name: 'x', agent_id: agentId, agent_phone_number_id: numberId };
    const twice = await post({ ...base, recipients: [{ phone_number: CALLEE }, { phone_number: CALLEE }] });
    expect(twice.status).toBe(422);
    expect((await twice.text()).toString()).toContain('listed twice');
    expect((await post({ ...base, recipients: [] })).status).toBe(422);
    const sip = await a.sdk.conversationalAi.phoneNumbers.create({
      provider: 'sip_trunk',
      phoneNumber: '+14155550155',
      label: 'Trunk 2',
    });
    const viaSip = await post({
      ...base,
      agent_phone_number_id: sip.phoneNumberId,
      recipients: [{ phone_number: CALLEE }],
    });
    expect(viaSip.status).toBe(400);
    expect((await b.sdk.conversationalAi.batchCalls.list()).batchCalls).toEqual([]);
  });
});
