import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type AudioFingerprint,
  alignFingerprints,
  concatFingerprints,
  FINGERPRINT_MIN_ALIGNED,
  fingerprintPieces,
  searchFingerprintGrids,
  type VoiceAudio,
} from '@parla/audio';
import type { Logger } from 'pino';
import type { Db } from '../../platform/db/client';
import {
  findGeneratedAudio,
  findLandmarks,
  hasGeneratedSubject,
  insertGeneratedAudio,
} from './provenance.store';
import type { GeneratedAudioSource } from './provenance.tables';

/*
 * The installation recognises its own output (issue 26 item 7, docs/decisions/0018): every generation it
 * sends out that could be played back to it is fingerprinted (landmarks, @parla/audio fingerprint.ts) and
 * kept; a recording is looked up against all of them, whatever the workspace. Fingerprinting runs after
 * the audio has gone out, a 5 s piece per turn of the event loop (bench/README.md: its cost per second),
 * so it never delays a generation's first audio nor holds other requests for long.
 */

export interface ProvenanceDeps {
  db: Db;
  logger: Logger;
}

/** Whose output it is and what made it. */
export interface GeneratedOrigin {
  /** Null for the installation's own (the premade voices' previews): kept until the installation goes. */
  workspaceId: string | null;
  source: GeneratedAudioSource;
  /** What the audio is of, when the same audio may be made again (a voice's preview): kept once. */
  subject?: string | undefined;
}

/** Audio sent out, piece by piece, whose fingerprint is kept once it ends. */
export interface GeneratedAudioTrace {
  /** The next piece sent out (a sentence, a line), in order; fingerprinted after this turn. */
  add(audio: VoiceAudio): void;
  /**
   * Nothing more will be sent: the fingerprint of what was is kept (in the background; a failure is
   * logged, never thrown). Call it in a `finally`, so a generation cut short keeps what it sent.
   */
  end(): void;
}

/**
 * What is being kept in this process: a lookup waits for it (bounded), so a recording of audio sent a
 * moment ago is found even before its fingerprint is written. Process-wide on purpose: the lookups of
 * every app in the process see every generation of it.
 */
const keeping = new Set<Promise<void>>();
/** How long a lookup waits for the fingerprints being kept. */
const KEEPING_WAIT_MS = 10_000;

/** Starts the fingerprint of a generation sent out piece by piece (a stream, a socket, a dialogue). */
export function traceGeneratedAudio(deps: ProvenanceDeps, origin: GeneratedOrigin): GeneratedAudioTrace {
  const parts: AudioFingerprint[] = [];
  let seconds = 0;
  let ended = false;
  // One piece after the other, each after the turn that sent it.
  let work: Promise<void> = Promise.resolve();
  return {
    add(audio) {
      if (ended || audio.samples.length === 0) return;
      const startSeconds = seconds;
      seconds += audio.samples.length / audio.sampleRate;
      work = work.then(async () => {
        const pieces = fingerprintPieces(audio, startSeconds);
        for (;;) {
          // Each piece on a later turn, never in the one that sent the audio (its bytes go out first).
          await nextTurn();
          const piece = pieces.next();
          if (piece.done) break;
          parts.push(piece.value);
        }
      });
    },
    end() {
      if (ended) return;
      ended = true;
      if (seconds === 0) return;
      const kept = work
        .then(async () => {
          if (origin.subject && (await hasGeneratedSubject(deps.db, origin.subject))) return;
          const whole = concatFingerprints(parts);
          await insertGeneratedAudio(deps.db, {
            workspaceId: origin.workspaceId,
            source: origin.source,
            subject: origin.subject,
            durationMs: Math.round(seconds * 1000),
            hashes: whole.hashes,
            frames: whole.frames,
          });
        })
        .catch((error: unknown) => {
          deps.logger.warn(
            { err: error, source: origin.source },
            'the fingerprint of a generated audio could not be kept',
          );
        })
        .finally(() => keeping.delete(kept));
      keeping.add(kept);
    },
  };
}

/** Keeps the fingerprint of one generated audio, sent out whole (in the background). */
export function rememberGeneratedAudio(
  deps: ProvenanceDeps,
  origin: GeneratedOrigin,
  audio: VoiceAudio,
): void {
  const trace = traceGeneratedAudio(deps, origin);
  trace.add(audio);
  trace.end();
}

/** Whether the audio of this subject (a voice's preview) is kept already. */
export function isSubjectRemembered(deps: Pick<ProvenanceDeps, 'db'>, subject: string): Promise<boolean> {
  return hasGeneratedSubject(deps.db, subject);
}

/** The generated audio a recording holds. */
export interface GeneratedMatch {
  source: GeneratedAudioSource;
  createdAt: Date;
  /** Landmarks of the recording found in it at one offset (at least FINGERPRINT_MIN_ALIGNED). */
  alignedHashes: number;
  /** Where in the generated audio the recording starts, in seconds. */
  offsetSeconds: number;
}

/**
 * The installation's own output in a recording, whichever workspace it was made for: the generated audio
 * whose landmarks line up best with the recording's, when at least FINGERPRINT_MIN_ALIGNED of them do.
 */
export async function findGeneratedMatch(
  deps: Pick<ProvenanceDeps, 'db'>,
  recording: VoiceAudio,
): Promise<GeneratedMatch | undefined> {
  if (keeping.size > 0) {
    await Promise.race([
      Promise.allSettled([...keeping]),
      new Promise((resolve) => setTimeout(resolve, KEEPING_WAIT_MS).unref()),
    ]);
  }
  const grids: AudioFingerprint[] = [];
  for (const grid of searchFingerprintGrids(recording)) {
    grids.push(grid);
    await nextTurn();
  }
  const hashes = new Set<number>();
  for (const grid of grids) for (const hash of grid.hashes) hashes.add(hash);
  const [best] = alignFingerprints(grids, await findLandmarks(deps.db, [...hashes]));
  if (!best || best.alignedHashes < FINGERPRINT_MIN_ALIGNED) return undefined;
  const [generated] = await findGeneratedAudio(deps.db, [Number(best.referenceId)]);
  if (!generated) return undefined;
  return {
    source: generated.source,
    createdAt: generated.createdAt,
    alignedHashes: best.alignedHashes,
    offsetSeconds: best.offsetSeconds,
  };
}
