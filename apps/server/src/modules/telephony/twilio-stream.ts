import { EventEmitter } from 'node:events';
import { pcmToUlaw, Resampler, ulawToPcm } from '@parla/audio';
import { type ConversationAudioFormat, conversationFormatRate, WS_CLOSE } from '@parla/contracts';
import type { WebSocket } from 'ws';

/*
 * A Twilio media stream presented to the conversation session as if it were a convai client's socket
 * (issue 28, phone numbers). Twilio's Media Streams protocol (bidirectional, `<Connect><Stream>`): it sends
 * `connected`, `start` (the stream and call SIDs, our custom parameters), `media` (base64 μ-law, 8 kHz,
 * mono, 20 ms a message), `mark` (a mark we sent has been played), `dtmf` and `stop`; we send `media`
 * (the agent's speech, μ-law 8 kHz), `mark`, and `clear` (empties what Twilio has not played yet: a
 * barge-in). The session speaks its own protocol to this adapter: the adapter turns the caller's audio into
 * `user_audio_chunk` messages in the agent's input format, the agent's `audio` into Twilio media, an
 * `interruption` into `clear`, answers the session's pings itself (a phone does not), and hangs up (closes
 * the stream) when the session closes.
 */

/** The session's view of a `ws` WebSocket: what `RealtimeSocket` uses of it. */
export class TwilioStreamAdapter extends EventEmitter {
  readonly OPEN = 1;
  readonly CLOSED = 3;
  readyState = 1;
  /** The conversation's id, once the session says it. */
  conversationId: string | undefined;
  private inputFormat: ConversationAudioFormat | undefined;
  private outputFormat: ConversationAudioFormat = 'pcm_16000';
  private toInput: Resampler | undefined;
  private toPhone: Resampler | undefined;
  private marks = 0;

  constructor(
    private readonly twilio: WebSocket,
    private readonly streamSid: string,
    private readonly hooks: {
      /** The session opened the conversation (its id is known). */
      onConversation: (conversationId: string) => void;
      /** The call ended, by the session (its close code and reason) or by the caller (1000), once. */
      onClosed: (code: number, reason: string) => void;
    },
  ) {
    super();
  }

  get bufferedAmount(): number {
    return this.twilio.bufferedAmount;
  }

  /** The first message the session reads: the call's initiation data (overrides, dynamic variables). */
  begin(clientData: Record<string, unknown>): void {
    this.deliver({ ...clientData, type: 'conversation_initiation_client_data' });
  }

  /** One Twilio `media` payload (base64 μ-law 8 kHz): to the session as the agent's input format. */
  hear(payload: string): void {
    // Before the conversation exists there is nobody to hear (the agent greets first anyway).
    if (this.inputFormat === undefined || this.readyState !== this.OPEN) return;
    const ulaw = Buffer.from(payload, 'base64');
    if (ulaw.length === 0) return;
    if (this.inputFormat === 'ulaw_8000') {
      this.deliver({ user_audio_chunk: ulaw.toString('base64') });
      return;
    }
    const pcm8k = ulawToPcm(ulaw);
    const samples = this.toInput ? this.toInput.push(pcm8k) : pcm8k;
    if (samples.length > 0) this.deliver({ user_audio_chunk: pcmToBase64(samples) });
  }

  /** What the session sends (its protocol's JSON), turned into Twilio's. */
  send(data: string): void {
    if (this.readyState !== this.OPEN) return;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(data) as Record<string, unknown>;
    } catch {
      return;
    }
    switch (message.type) {
      case 'conversation_initiation_metadata': {
        const event = message.conversation_initiation_metadata_event as {
          conversation_id: string;
          agent_output_audio_format: ConversationAudioFormat;
          user_input_audio_format: ConversationAudioFormat;
        };
        this.inputFormat = event.user_input_audio_format;
        this.outputFormat = event.agent_output_audio_format;
        const inRate = conversationFormatRate(this.inputFormat);
        if (this.inputFormat !== 'ulaw_8000' && inRate !== 8000) this.toInput = new Resampler(8000, inRate);
        const outRate = conversationFormatRate(this.outputFormat);
        if (this.outputFormat !== 'ulaw_8000' && outRate !== 8000)
          this.toPhone = new Resampler(outRate, 8000);
        this.conversationId = event.conversation_id;
        this.hooks.onConversation(event.conversation_id);
        return;
      }
      case 'audio': {
        const event = message.audio_event as { audio_base_64: string };
        this.speak(Buffer.from(event.audio_base_64, 'base64'));
        return;
      }
      case 'interruption':
        // Barge-in: what Twilio holds of the agent's speech is dropped at once.
        this.toTwilio({ event: 'clear', streamSid: this.streamSid });
        return;
      case 'ping': {
        const event = message.ping_event as { event_id: number };
        this.deliver({ type: 'pong', event_id: event.event_id });
        return;
      }
      default:
        // Transcripts, agent responses, vad scores, tool events: a phone has no screen for them.
        return;
    }
  }

  /** The session closes the conversation: the stream is closed, and Twilio hangs up. */
  close(code: number = WS_CLOSE.normal, reason = ''): void {
    if (this.readyState !== this.OPEN) return;
    this.twilio.close(code === WS_CLOSE.normal ? 1000 : 1011, reason.slice(0, 120));
    this.ended(code, reason);
  }

  terminate(): void {
    if (this.readyState === this.OPEN) this.twilio.terminate();
    this.ended();
  }

  /** The stream ended (Twilio's `stop`, its socket closed, or the session's close): the session sees it. */
  ended(code = 1000, reason = 'Call ended'): void {
    if (this.readyState !== this.OPEN) return;
    this.readyState = this.CLOSED;
    this.hooks.onClosed(code, reason);
    this.emit('close', 1000, Buffer.from(reason));
  }

  private speak(bytes: Buffer): void {
    let ulaw: Uint8Array;
    if (this.outputFormat === 'ulaw_8000') ulaw = bytes;
    else {
      const pcm = new Int16Array(bytes.length >> 1);
      for (let i = 0; i < pcm.length; i += 1) pcm[i] = bytes.readInt16LE(i * 2);
      ulaw = pcmToUlaw(this.toPhone ? this.toPhone.push(pcm) : pcm);
    }
    if (ulaw.length === 0) return;
    this.toTwilio({
      event: 'media',
      streamSid: this.streamSid,
      media: { payload: Buffer.from(ulaw).toString('base64') },
    });
    // A mark after each piece: Twilio answers it once the piece has played (kept for its logs).
    this.marks += 1;
    this.toTwilio({ event: 'mark', streamSid: this.streamSid, mark: { name: `agent-${this.marks}` } });
  }

  private toTwilio(message: unknown): void {
    if (this.twilio.readyState === this.twilio.OPEN) this.twilio.send(JSON.stringify(message));
  }

  /** A message to the session, as if its client had sent it. */
  private deliver(message: unknown): void {
    this.emit('message', Buffer.from(JSON.stringify(message)), false);
  }
}

function pcmToBase64(samples: Int16Array): string {
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i += 1) out.writeInt16LE(samples[i] as number, i * 2);
  return out.toString('base64');
}
