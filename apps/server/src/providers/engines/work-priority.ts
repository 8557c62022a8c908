import os from 'node:os';

/**
 * The niceness of synthesis and encoding (the engine threads, the program hosts and what they run:
 * festival, flite, ffmpeg): below the server's event loop and the engine children's message handling, so
 * `/health` and new requests get a core at once while the engines keep every core busy. On an idle
 * machine it changes nothing. It works because every one of these processes stays in the server's
 * session: Linux's autogroup scheduling shares the CPU between sessions first, whatever the nice values
 * (an engine child started with setsid competed with the server as an equal).
 */
export const WORK_NICENESS = 10;

/** Lowers a process's (or, with no pid, the calling thread's) CPU priority to WORK_NICENESS. */
export function lowerPriority(pid?: number): void {
  try {
    if (pid === undefined) os.setPriority(WORK_NICENESS);
    else os.setPriority(pid, WORK_NICENESS);
  } catch {
    // Not allowed here, or the process is gone already: it runs at the normal priority.
  }
}
