import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pcmToUlaw, Resampler, ulawToPcm } from '@parla/audio';
import WebSocket from 'ws';

/*
 * A local stand-in for Twilio (issue 28, phone numbers), like the Stripe one: its REST API's call creation
 * (`POST /2010-04-01/Accounts/{sid}/Calls.json`, HTTP basic auth, form body, Twilio's JSON answers and
 * errors) records each request; `answer()` then does what Twilio does when the callee picks up: it runs
 * the call's TwiML `<Connect><Stream>`, connecting to the stream URL and speaking the Media Streams protocol
 * (`connected`, `start` with the `<Parameter>`s, `media` as base64 μ-law 8 kHz in 20 ms frames, `mark`
 * answered once played, `stop`), as a phone callee would. It holds no Parla rule: tests assert what
 * Parla sent.
 */

export interface TwilioCallRequest {
  accountSid: string;
  /** The basic-auth user and password the request carried. */
  auth: { user: string; password: string };
  params: Record<string, string>;
}

/** The stream's parameters from the TwiML: the URL and the `<Parameter>`s. */
export function parseStreamTwiml(twiml: string): { url: string; parameters: Record<string, string> } {
  const unescapeXml = (value: string) =>
    value
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const stream = /<Connect>\s*<Stream url="([^"]*)"/.exec(twiml);
  if (!stream) throw new Error(`no <Connect><Stream> in ${twiml}`);
  const parameters: Record<string, string> = {};
  for (const match of twiml.matchAll(/<Parameter name="([^"]*)" value="([^"]*)"\s*\/>/g))
    parameters[unescapeXml(match[1] as string)] = unescapeXml(match[2] as string);
  return { url: unescapeXml(stream[1] as string), parameters };
}

export async function startFakeTwilio(accounts: Record<string, string>) {
  const calls: TwilioCallRequest[] = [];
  let counter = 0;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      const send = (status: number, json: unknown) => {
        response.statusCode = status;
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(json));
      };
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/.exec(request.url ?? '');
      if (request.method !== 'POST' || !match) {
        send(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
        return;
      }
      const [user = '', password = ''] = Buffer.from(
        (request.headers.authorization ?? '').replace(/^Basic /, ''),
        'base64',
      )
        .toString()
        .split(':');
      const accountSid = decodeURIComponent(match[1] as string);
      const params = Object.fromEntries(new URLSearchParams(body));
      calls.push({ accountSid, auth: { user, password }, params });
      if (accounts[user] === undefined || accounts[user] !== password || user !== accountSid) {
        send(401, {
          code: 20003,
          message: 'Authenticate',
          more_info: 'https://www.twilio.com/docs/errors/20003',
          status: 401,
        });
        return;
      }
      if (!params.To || !params.From || !(params.Twiml || params.Url)) {
        send(400, { code: 21201, message: "No 'To' number is specified", status: 400 });
        return;
      }
      // Twilio's answer to a number it will not dial (here: the +1999 range, as a test's bad recipient).
      if (params.To.startsWith('+1999')) {
        send(400, { code: 21211, message: `Invalid 'To' Phone Number: ${params.To}`, status: 400 });
        return;
      }
      counter += 1;
      send(201, {
        sid: `CA${String(counter).padStart(32, '0')}`,
        account_sid: accountSid,
        to: params.To,
        from: params.From,
        status: 'queued',
        direction: 'outbound-api',
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    /** The callee picks up: Twilio runs the call's TwiML and streams its audio to the URL it names. */
    answer(twiml: string, callSid: string, accountSid = 'AC00000000000000000000000000000000') {
      return new TwilioCallee(parseStreamTwiml(twiml), callSid, accountSid);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeTwilio = Awaited<ReturnType<typeof startFakeTwilio>>;

type StreamMessage = {
  event: string;
  streamSid?: string;
  media?: { payload: string };
  mark?: { name: string };
};

/** One answered call's media stream, as Twilio speaks it: the callee's audio out, the agent's in. */
export class TwilioCallee {
  readonly streamSid: string;
  readonly ws: WebSocket;
  /** Everything Parla sent on the stream. */
  readonly received: StreamMessage[] = [];
  /** The agent's speech heard so far (8 kHz PCM decoded from μ-law), with each piece's arrival. */
  readonly heard: { at: number; samples: Int16Array }[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  private sequence = 0;
  private chunk = 0;

  constructor(
    stream: { url: string; parameters: Record<string, string> },
    readonly callSid: string,
    accountSid: string,
  ) {
    this.streamSid = `MZ${callSid.slice(2)}`;
    this.ws = new WebSocket(stream.url);
    this.ws.on('error', () => undefined);
    this.ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as StreamMessage;
      this.received.push(message);
      if (message.event === 'media' && message.media)
        this.heard.push({ at: Date.now(), samples: ulawToPcm(Buffer.from(message.media.payload, 'base64')) });
      // Twilio answers a mark once the audio before it has played (here: at once, a phone with no delay).
      if (message.event === 'mark' && message.mark)
        this.send({ event: 'mark', streamSid: this.streamSid, mark: message.mark });
    });
    this.closed = new Promise((resolve) =>
      this.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    this.opened = new Promise<void>((resolve) =>
      this.ws.on('open', () => {
        this.send({ event: 'connected', protocol: 'Call', version: '1.0.0' });
        this.send({
          event: 'start',
          start: {
            accountSid,
            streamSid: this.streamSid,
            callSid,
            tracks: ['inbound'],
            customParameters: stream.parameters,
            mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
          },
          streamSid: this.streamSid,
        });
        resolve();
      }),
    );
  }

  of(event: string): StreamMessage[] {
    return this.received.filter((m) => m.event === event);
  }

  /** Samples of the agent's speech heard so far. */
  get heardSamples(): number {
    return this.heard.reduce((n, piece) => n + piece.samples.length, 0);
  }

  /**
   * The callee says `samples` (16 kHz PCM) into the phone: μ-law 8 kHz in 20 ms frames, paced `paceMs`
   * apart (Twilio sends in real time: 20; tests may go faster, as far as Parla allows).
   */
  async say(samples: Int16Array, sampleRate: number, paceMs = 20): Promise<void> {
    const resampler = new Resampler(sampleRate, 8000);
    const at8k = resampler.push(samples);
    for (let at = 0; at < at8k.length; at += 160) {
      if (this.ws.readyState !== WebSocket.OPEN) return;
      const frame = at8k.subarray(at, Math.min(at8k.length, at + 160));
      this.chunk += 1;
      this.send({
        event: 'media',
        streamSid: this.streamSid,
        media: {
          track: 'inbound',
          chunk: String(this.chunk),
          timestamp: String(this.chunk * 20),
          payload: Buffer.from(pcmToUlaw(frame)).toString('base64'),
        },
      });
      await new Promise((resolve) => setTimeout(resolve, paceMs));
    }
  }

  /** The callee hangs up: Twilio sends `stop` and closes the stream. */
  hangUp(): void {
    this.send({ event: 'stop', streamSid: this.streamSid, stop: { accountSid: '', callSid: this.callSid } });
    this.ws.close(1000);
  }

  send(message: Record<string, unknown>): void {
    this.sequence += 1;
    if (this.ws.readyState === WebSocket.OPEN)
      this.ws.send(JSON.stringify({ ...message, sequenceNumber: String(this.sequence) }));
  }
}
