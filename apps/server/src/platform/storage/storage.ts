import type { Readable } from 'node:stream';

/** Where files live (audio, uploads, renders). Keys are relative, `/`-separated paths like `ws/abc/x.mp3`. */
export interface Storage {
  /** Writes atomically: readers see the old file or the whole new one, never a part. */
  put(key: string, data: Buffer | Uint8Array | Readable): Promise<{ size: number }>;
  get(key: string): Promise<Buffer | undefined>;
  /** A stream of the file, optionally a byte range [start, end] (inclusive); undefined when absent. */
  stream(key: string, range?: { start: number; end: number }): Promise<Readable | undefined>;
  stat(key: string): Promise<{ size: number; modifiedAt: Date } | undefined>;
  delete(key: string): Promise<void>;
  /** Every key under a prefix, in no particular order. */
  list(prefix: string): Promise<string[]>;
}
