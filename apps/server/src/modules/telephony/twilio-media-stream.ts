import type { RawData, WebSocket } from 'ws';
import type { AppDeps } from '../../app-deps';
import { sha256Hex } from '../../platform/secrets';
import { issueSignature, openConversationOn, recordPhoneCall } from '../conversations';
import { CALL_TOKEN_TTL_MS } from './telephony.service';
import { claimPhoneCall, updatePhoneCall } from './telephony.store';
import { TwilioStreamAdapter } from './twilio-stream';

/*
 * `/v1/convai/twilio/media-stream`: where Twilio connects a call's audio (the TwiML's `<Connect><Stream>`).
 * The stream's `start` event carries the call's one-time token (a `<Parameter>`); the call it names opens
 * a conversation with its agent through the conversation socket's own session (TwilioStreamAdapter), so
 * minutes, the concurrency limit, the turn loop, barge-in and the history are those of any conversation;
 * the conversation's metadata says it was this phone call.
 */

/** Twilio sends `connected` and `start` at once; a stream that does not start within this is closed. */
const START_WITHIN_MS = 10_000;
/** The largest Twilio message (a 20 ms media frame is ~300 bytes; `start` a few KB). */
const MAX_TWILIO_MESSAGE_BYTES = 64 * 1024;

interface TwilioStart {
  streamSid: string;
  callSid: string;
  customParameters?: Record<string, string>;
}

export function openTwilioMediaStream(deps: AppDeps, twilio: WebSocket): void {
  let adapter: TwilioStreamAdapter | undefined;
  let starting = false;
  const refuse = (reason: string) => {
    deps.logger.info({ reason }, 'a Twilio media stream was refused');
    twilio.close(1008, reason.slice(0, 120));
  };
  const timer = setTimeout(() => {
    if (!adapter) refuse('The stream did not start.');
  }, START_WITHIN_MS);
  timer.unref();
  twilio.on('close', () => {
    clearTimeout(timer);
    adapter?.ended();
  });
  twilio.on('error', () => adapter?.ended());
  twilio.on('message', (data: RawData, isBinary: boolean) => {
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (isBinary || buffer.length > MAX_TWILIO_MESSAGE_BYTES) {
      refuse('Twilio media stream messages are JSON text.');
      return;
    }
    let message: { event?: unknown; start?: TwilioStart; media?: { payload?: unknown; track?: unknown } };
    try {
      message = JSON.parse(buffer.toString('utf8')) as typeof message;
    } catch {
      refuse('A message was not JSON.');
      return;
    }
    switch (message.event) {
      case 'media':
        if (typeof message.media?.payload === 'string' && message.media.track !== 'outbound')
          adapter?.hear(message.media.payload);
        return;
      case 'start':
        if (starting || !message.start) return;
        starting = true;
        void start(deps, twilio, message.start)
          .then((opened) => {
            clearTimeout(timer);
            if (opened) adapter = opened;
          })
          .catch((error: unknown) => {
            deps.logger.warn({ err: error }, 'a Twilio media stream could not start');
            refuse('The call could not be connected to its agent.');
          });
        return;
      case 'stop':
        adapter?.ended();
        twilio.close(1000);
        return;
      default:
        // connected, mark (a piece of speech played), dtmf: nothing to do.
        return;
    }
  });
}

async function start(
  deps: AppDeps,
  twilio: WebSocket,
  event: TwilioStart,
): Promise<TwilioStreamAdapter | undefined> {
  const token = event.customParameters?.call_token;
  if (typeof token !== 'string' || typeof event.streamSid !== 'string' || typeof event.callSid !== 'string') {
    twilio.close(1008, 'The stream carries no call of this server.');
    return undefined;
  }
  const db = deps.database.db;
  const now = deps.clock.now();
  const call = await claimPhoneCall(db, sha256Hex(token), new Date(now.getTime() - CALL_TOKEN_TTL_MS), now, {
    streamSid: event.streamSid.slice(0, 64),
    callSid: event.callSid.slice(0, 64),
  });
  if (!call?.userId) {
    twilio.close(1008, 'This call is unknown, expired or already connected.');
    return undefined;
  }
  if (twilio.readyState !== twilio.OPEN) {
    await updatePhoneCall(db, call.id, { status: 'failed', error: 'Twilio left before the stream started.' });
    return undefined;
  }
  const signature = await issueSignature(deps, {
    agentId: call.agentId,
    workspaceId: call.workspaceId,
    userId: call.userId,
  });
  const adapter = new TwilioStreamAdapter(twilio, event.streamSid, {
    onConversation: (conversationId) => {
      void Promise.all([
        updatePhoneCall(db, call.id, { conversationId }),
        recordPhoneCall(deps, conversationId, {
          type: 'twilio',
          direction: call.direction,
          phone_number_id: call.phoneNumberId,
          agent_number: call.agentNumber,
          external_number: call.externalNumber,
          stream_sid: event.streamSid,
          call_sid: event.callSid,
        }),
      ]).catch((error: unknown) => deps.logger.warn({ err: error }, 'a phone call was not recorded'));
    },
    onClosed: (code, reason) => {
      void updatePhoneCall(db, call.id, {
        status: code === 1000 ? 'completed' : 'failed',
        error: code === 1000 ? null : reason.slice(0, 500),
      }).catch(() => undefined);
    },
  });
  // The caller hung up: the session sees its client leave.
  twilio.on('close', () => adapter.ended());
  openConversationOn(deps, adapter as unknown as WebSocket, { agentId: call.agentId, signature });
  // The phone call's facts, as the public API names them (system dynamic variables), with the caller's.
  const clientData = call.clientData ?? {};
  adapter.begin({
    ...clientData,
    dynamic_variables: {
      ...(clientData.dynamic_variables ?? {}),
      system__caller_id: call.direction === 'inbound' ? call.externalNumber : call.agentNumber,
      system__called_number: call.direction === 'inbound' ? call.agentNumber : call.externalNumber,
      system__call_sid: event.callSid.slice(0, 64),
    },
  });
  return adapter;
}
