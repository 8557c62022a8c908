import type { Logger } from 'pino';
import type { JobDefinition } from './job-definition';
import type { JobQueue } from './job-queue';

/** A job to enqueue every `everyMs` milliseconds (from the modules' manifests, `JobSchedule`). */
export interface ScheduledJob {
  definition: JobDefinition<object, unknown>;
  everyMs: number;
}

/**
 * Enqueues each scheduled job now and then once per interval, in a worker process. Several workers may
 * run schedules: the interval's number is the job's singleton key, so each interval's job is enqueued
 * once whichever worker comes first. Answers the function that stops the timers.
 */
export function startSchedules(
  queue: JobQueue,
  schedules: readonly ScheduledJob[],
  logger: Logger,
): () => void {
  const timers = schedules.map(({ definition, everyMs }) => {
    const enqueue = () => {
      const slot = Math.floor(Date.now() / everyMs);
      queue
        .enqueue(definition, {}, { singletonKey: `${definition.name}:${slot}` })
        .catch((err: unknown) =>
          logger.error({ err, job: definition.name }, 'could not enqueue a scheduled job'),
        );
    };
    enqueue();
    const timer = setInterval(enqueue, everyMs);
    timer.unref();
    return timer;
  });
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}
