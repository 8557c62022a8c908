import { WS_CLOSE } from '@parla/contracts';
import type { Logger } from 'pino';
import type { RawData, WebSocket } from 'ws';

/*
 * One realtime socket as the protocols use it (issue 20 item 1): messages handled one at a time and in
 * order, JSON sent with back-pressure, idle and maximum-duration timers, and one close. The protocols
 * (text to speech, realtime transcription) decide what their messages mean and which errors they send.
 */

/** The largest frame the server reads at all; a protocol refuses smaller ones with its own error. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * Bytes queued for a client past which a sender waits until the client reads (back-pressure). With the
 * largest message a protocol sends (one generation's audio, a few hundred KB of base64), a socket's
 * outgoing buffer stays under about 2 MB however slowly its client reads.
 */
export const HIGH_WATER_BYTES = 1024 * 1024;
/** A client that reads nothing for this long while the server has audio for it is closed. */
export const STALL_MS = 30_000;

/** Messages kept while a socket authenticates (a client may send its first ones at once). */
const MAX_EARLY_MESSAGES = 32;

/** The sockets this process has open: for /health, shutdown and the memory bench. */
const openSockets = new Set<RealtimeSocket>();

/** A bound as a message says it: "60 minutes", "90 s", "60 s". */
export function describeDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds >= 120 && seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} s`;
}

export function openSocketCount(): number {
  return openSockets.size;
}

export type SocketMessage = { text: string; bytes: number } | { binary: Buffer; bytes: number };

export interface RealtimeSocketOptions {
  logger: Logger;
  /** The longest the socket may stay open; `onExpired` runs then (the protocol's message, then a close). */
  maxDurationMs: number;
  onExpired: () => void;
}

export class RealtimeSocket {
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];
  private handler: ((message: SocketMessage) => Promise<void> | void) | undefined;
  /** Messages that arrived before a handler was set (while the socket authenticated), and their chain. */
  private readonly early: SocketMessage[] = [];
  private chain: Promise<void> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;
  private idleMs = 0;
  private onIdle: (() => void) | undefined;
  private readonly expiry: NodeJS.Timeout;

  constructor(
    private readonly ws: WebSocket,
    private readonly options: RealtimeSocketOptions,
  ) {
    openSockets.add(this);
    // Listened to at once: a client may send its first message before the socket is authenticated.
    ws.on('message', (data: RawData, isBinary: boolean) => this.receive(data, isBinary));
    ws.on('close', () => this.ended());
    ws.on('error', (error) => {
      options.logger.debug({ err: error }, 'a socket failed');
      this.ended();
    });
    this.expiry = setTimeout(() => {
      if (!this.closed) options.onExpired();
    }, options.maxDurationMs);
    this.expiry.unref();
  }

  get isOpen(): boolean {
    return !this.closed && this.ws.readyState === this.ws.OPEN;
  }

  /** Bytes sent but not yet taken by the client's connection. */
  get buffered(): number {
    return this.ws.bufferedAmount;
  }

  /** Handles each message in turn (the next waits for the previous handler); earlier ones first. */
  onMessage(handler: (message: SocketMessage) => Promise<void> | void): void {
    this.handler = handler;
    for (const message of this.early.splice(0)) this.enqueue(message);
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** Sends one JSON message (nothing once closed). */
  send(message: unknown): void {
    if (!this.isOpen) return;
    this.ws.send(JSON.stringify(message));
  }

  /**
   * Resolves once the client has read enough that more may be sent (true), or with false once the socket
   * is closed: a client that reads nothing for STALL_MS is closed with 1008, so a slow or stopped reader
   * bounds the server's memory instead of growing it.
   */
  async writable(): Promise<boolean> {
    const since = performance.now();
    while (this.isOpen && this.ws.bufferedAmount > HIGH_WATER_BYTES) {
      if (performance.now() - since > STALL_MS) {
        this.close(WS_CLOSE.policyViolation, 'The client stopped reading; the socket was closed.');
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.isOpen;
  }

  /**
   * Calls `onIdle` after `ms` without a `touch()` (each protocol says what counts as activity); 0 stops
   * the timer.
   */
  setIdleTimeout(ms: number, onIdle: () => void): void {
    this.idleMs = ms;
    this.onIdle = onIdle;
    this.touch();
  }

  touch(): void {
    if (this.idle) clearTimeout(this.idle);
    if (this.closed || this.idleMs <= 0 || !this.onIdle) return;
    const onIdle = this.onIdle;
    this.idle = setTimeout(() => {
      if (!this.closed) onIdle();
    }, this.idleMs);
    this.idle.unref();
  }

  /** Closes once, with a code and a reason (cut to the 123 bytes a close frame holds). */
  close(code: number = WS_CLOSE.normal, reason = ''): void {
    if (this.closed) return;
    let cut = reason;
    while (Buffer.byteLength(cut) > 123) cut = cut.slice(0, -1);
    try {
      this.ws.close(code, cut);
    } catch {
      this.ws.terminate();
    }
    // A client that never answers the close frame is cut off.
    setTimeout(() => this.ws.terminate(), 5_000).unref();
    this.ended();
  }

  /** Sends a protocol's error message, then closes with `code`. */
  fail(message: unknown, code: number, reason: string): void {
    this.send(message);
    this.close(code, reason);
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    const message: SocketMessage = isBinary
      ? { binary: buffer, bytes: buffer.length }
      : { text: buffer.toString('utf8'), bytes: buffer.length };
    if (this.handler) this.enqueue(message);
    else if (this.early.length < MAX_EARLY_MESSAGES) this.early.push(message);
    else this.close(WS_CLOSE.policyViolation, 'Too many messages before the socket was authenticated.');
  }

  private enqueue(message: SocketMessage): void {
    const handler = this.handler;
    if (!handler) return;
    this.chain = this.chain
      .then(async () => {
        if (!this.closed) await handler(message);
      })
      .catch((error: unknown) => {
        this.options.logger.error({ err: error }, 'a socket message handler failed');
        this.close(WS_CLOSE.internalError, 'Internal error');
      });
  }

  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    openSockets.delete(this);
    if (this.idle) clearTimeout(this.idle);
    clearTimeout(this.expiry);
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener();
      } catch (error) {
        this.options.logger.error({ err: error }, 'a socket close listener failed');
      }
    }
  }
}
