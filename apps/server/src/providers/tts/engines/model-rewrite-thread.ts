/**
 * The float-convolution copy of a model (onnx-float-convolutions.ts), written once to the temp folder by
 * a thread of its own and read from there by every engine child. Done on the engine thread, the rewrite's
 * buffers (the model read, its copy, the dequantized weights: about 400 MB at the peak) stayed in the
 * child's resident memory after the session was made from them: 690 MB with Kokoro loaded, against
 * 370 MB when the session is made from a file the rewrite thread wrote and left (bench/neural-tts.bench.ts).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parentPort, threadId } from 'node:worker_threads';
import { childWorker } from '../../engines/child-entry';
import { floatConvolutions } from './onnx-float-convolutions';

/** The workerData `kind` that makes the child entry serve as a model rewrite thread. */
export const MODEL_REWRITE_THREAD = 'parla-model-rewrite';

export interface ModelRewriteJob {
  kind: typeof MODEL_REWRITE_THREAD;
  source: string;
  target: string;
  prefix: string;
}

type RewriteReply = { ok: true; rewritten: number } | { ok: false; error: string };

/**
 * A copy not taken for this long may be removed when a newer copy of the same source is written. A copy's
 * modification time is refreshed each time a child takes it (floatConvolutionsFile), so an hour means no
 * process (of this checkout or of another one sharing the temp folder) has opened it for an hour; a process
 * that already holds it open keeps reading it after the unlink.
 */
export const STALE_COPY_MS = 60 * 60 * 1000;

/** The parts of a copy's name: `<folder>-<size>-<source mtime>-<prefix>.onnx`. */
function copyNameParts(source: string, size: number, prefix: string): { head: string; tail: string } {
  const part = prefix.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
  return { head: `${path.basename(path.dirname(source))}-${size}-`, tail: `-${part}.onnx` };
}

/** Where the copy of a model file goes: named by the file's folder, size and time, so a new file gets a new copy. */
function copyPath(source: string, stat: fs.Stats, prefix: string): string {
  const { head, tail } = copyNameParts(source, stat.size, prefix);
  return path.join(os.tmpdir(), 'parla-models', `${head}${Math.round(stat.mtimeMs)}${tail}`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Removes, beside the copy `target` just written, the copies of the same source made from an older file
 * (the same folder, size and prefix, another modification time: a fresh checkout or a re-downloaded model
 * gets a new copy of 135 MB, and the old ones piled up in /tmp) and the partial copies a killed rewrite left,
 * each only when untouched for STALE_COPY_MS. Returns the names removed.
 */
export function removeStaleCopies(
  target: string,
  source: { file: string; size: number; prefix: string },
  now = Date.now(),
): string[] {
  const dir = path.dirname(target);
  const { head, tail } = copyNameParts(source.file, source.size, source.prefix);
  const sameSource = new RegExp(`^${escapeRegExp(head)}\\d+${escapeRegExp(tail)}(\\.\\d+-\\d+\\.partial)?$`);
  const removed: string[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (name === path.basename(target) || !sameSource.test(name)) continue;
    const file = path.join(dir, name);
    try {
      // Looked at just before the unlink: a process that took the copy since the listing refreshed it.
      if (now - fs.statSync(file).mtimeMs < STALE_COPY_MS) continue;
      fs.unlinkSync(file);
      removed.push(name);
    } catch {
      // Gone already (another process cleaned up), or not ours to remove (another user's): left alone.
    }
  }
  return removed;
}

/**
 * The path of `source` with the ConvInteger under `prefix` as float Conv: made by a rewrite thread the
 * first time, then reused (by the other children too, and after a restart).
 */
export async function floatConvolutionsFile(source: string, prefix: string): Promise<string> {
  const stat = await fsp.stat(source);
  const target = copyPath(source, stat, prefix);
  if (await takeCopy(target)) return target;
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const job: ModelRewriteJob = { kind: MODEL_REWRITE_THREAD, source, target, prefix };
  const reply = await new Promise<RewriteReply>((resolve, reject) => {
    const worker = childWorker(job);
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The model rewrite thread stopped (exit code ${code}).`)));
  });
  if (!reply.ok) throw new Error(reply.error);
  removeStaleCopies(target, { file: source, size: stat.size, prefix });
  return target;
}

/**
 * Whether the copy is there, marking it taken now (its modification time) so that no other process removes
 * it as stale (removeStaleCopies) while this one opens it.
 */
async function takeCopy(target: string): Promise<boolean> {
  const now = new Date();
  try {
    await fsp.utimes(target, now, now);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    // Another user's copy (not ours to touch): used as it is.
    return fs.existsSync(target);
  }
}

/** The rewrite thread's side: reads the model, writes its copy (whole, then renamed into place), answers. */
export async function serveModelRewrite(job: ModelRewriteJob): Promise<void> {
  let reply: RewriteReply;
  try {
    const { model, rewritten } = floatConvolutions(await fsp.readFile(job.source), job.prefix);
    const partial = `${job.target}.${process.pid}-${threadId}.partial`;
    await fsp.writeFile(partial, model);
    await fsp.rename(partial, job.target);
    reply = { ok: true, rewritten };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
}
