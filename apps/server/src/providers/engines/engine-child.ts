/**
 * The entry of an engine child process. Engines run here, never in the server's process: a crash or a
 * hang costs this process only, and the pool respawns it. `crash` and `hang` exist so the supervision
 * can be tested for real.
 */

import type { EngineSynthesisRequest, EngineSynthesisResult } from '../tts/engine-synthesis';
import { synthesizeWithESpeak } from '../tts/engines/espeak-engine';
import { synthesizeWithFestival } from '../tts/engines/festival-engine';
import { synthesizeWithFlite } from '../tts/engines/flite-engine';
import type { EngineReply, EngineRequest } from './engine-protocol';

function synthesize(request: EngineSynthesisRequest): Promise<EngineSynthesisResult> {
  switch (request.engine) {
    case 'espeak':
      return synthesizeWithESpeak(request);
    case 'flite':
      return synthesizeWithFlite(request);
    case 'festival':
      return synthesizeWithFestival(request);
    case 'external':
      return Promise.reject(
        new Error('The external speech server is called from the server, not from an engine.'),
      );
  }
}

function reply(message: EngineReply): void {
  process.send?.(message);
}

process.on('message', (message: EngineRequest) => {
  switch (message.task) {
    case 'ping':
      reply({ id: message.id, ok: true, result: { pid: process.pid, uptime: process.uptime() } });
      return;
    case 'crash':
      process.abort();
      return;
    case 'synthesize':
      synthesize(message.request).then(
        (result) => reply({ id: message.id, ok: true, result }),
        (error: unknown) =>
          reply({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
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
