/**
 * The entry of an engine child process. Engines run here, never in the server's process: a crash or a
 * hang costs this process only, and the pool respawns it. `crash` and `hang` exist so the supervision
 * can be tested for real. The child's own thread relays and answers pings; syntheses run on its engine
 * thread (engine-thread.ts), which is this entry too, and so are a program host (program-host.ts, started
 * with PROGRAM_HOST_FLAG), the realtime voice-activity process (realtime-vad-thread.ts,
 * REALTIME_VAD_FLAG), the embedded LLM's process (llm/llm-child.ts, LLM_CHILD_FLAG) and the thread that rewrites a neural model once (model-rewrite-thread.ts): a build
 * has one child entry.
 */

import { isMainThread, workerData } from 'node:worker_threads';
import { PROGRAM_HOST_FLAG, serveProgramHost } from '../../platform/program-host';
import { LLM_CHILD_FLAG, serveLlm } from '../llm/llm-child';
import { REALTIME_VAD_FLAG, serveRealtimeVad } from '../stt/realtime-vad-thread';
import {
  MODEL_REWRITE_THREAD,
  type ModelRewriteJob,
  serveModelRewrite,
} from '../tts/engines/model-rewrite-thread';
import type { EngineReply, EngineRequest } from './engine-protocol';
import { ENGINE_THREAD, runOnThread, serveEngineThread } from './engine-thread';

function reply(message: EngineReply): void {
  process.send?.(message);
}

function serveEngines(): void {
  process.on('message', (message: EngineRequest) => {
    switch (message.task) {
      case 'ping':
        reply({ id: message.id, ok: true, result: { pid: process.pid, uptime: process.uptime() } });
        return;
      case 'crash':
        process.abort();
        return;
      case 'synthesize':
      case 'stt':
      case 'warm-up':
        runOnThread(message.task === 'warm-up' ? { warmUp: true } : message.request).then(
          (result) => reply({ id: message.id, ok: true, result }),
          (error: unknown) =>
            reply({
              id: message.id,
              ok: false,
              error: error instanceof Error ? error.message : String(error),
            }),
        );
        return;
      case 'hang':
        while (true) {
          // Busy loop: only the pool's time bound ends this.
        }
      default:
        reply({ id: (message as { id: number }).id, ok: false, error: 'unknown task' });
    }
  });

  process.on('disconnect', () => process.exit(0));
  reply({ ready: true, pid: process.pid });
}

if (!isMainThread && workerData === ENGINE_THREAD) serveEngineThread();
else if (!isMainThread && (workerData as ModelRewriteJob | undefined)?.kind === MODEL_REWRITE_THREAD)
  void serveModelRewrite(workerData as ModelRewriteJob);
else if (process.argv.includes(PROGRAM_HOST_FLAG)) serveProgramHost();
else if (process.argv.includes(REALTIME_VAD_FLAG)) serveRealtimeVad();
else if (process.argv.includes(LLM_CHILD_FLAG)) serveLlm();
else serveEngines();
