/**
 * The entry of an engine child process. Engines run here, never in the server's process: a crash or a
 * hang costs this process only, and the pool respawns it. `crash` and `hang` exist so the supervision
 * can be tested for real.
 */
import type { EngineReply, EngineRequest } from './engine-protocol';

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
