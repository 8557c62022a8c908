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

/** Where the copy of a model file goes: named by the file's folder, size and time, so a new file gets a new copy. */
function copyPath(source: string, stat: fs.Stats, prefix: string): string {
  const part = prefix.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
  const name = `${path.basename(path.dirname(source))}-${stat.size}-${Math.round(stat.mtimeMs)}-${part}.onnx`;
  return path.join(os.tmpdir(), 'parla-models', name);
}

/**
 * The path of `source` with the ConvInteger under `prefix` as float Conv: made by a rewrite thread the
 * first time, then reused (by the other children too, and after a restart).
 */
export async function floatConvolutionsFile(source: string, prefix: string): Promise<string> {
  const stat = await fsp.stat(source);
  const target = copyPath(source, stat, prefix);
  if (fs.existsSync(target)) return target;
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const job: ModelRewriteJob = { kind: MODEL_REWRITE_THREAD, source, target, prefix };
  const reply = await new Promise<RewriteReply>((resolve, reject) => {
    const worker = childWorker(job);
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The model rewrite thread stopped (exit code ${code}).`)));
  });
  if (!reply.ok) throw new Error(reply.error);
  return target;
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
