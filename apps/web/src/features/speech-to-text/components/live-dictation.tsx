import { useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import { formatClipDuration } from '../../../lib/recording';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { FormMessage } from '../../../ui/field';
import { CheckCircleIcon, SpinnerIcon } from '../../../ui/icons';
import { type DictationStatus, type KeptTranscript, useLiveDictation } from '../use-live-dictation';
import { transcriptPath } from './transcript-list';

const statusLabels: Record<DictationStatus, string> = {
  idle: 'Not started',
  connecting: 'Connecting…',
  listening: 'Listening',
  stopping: 'Finishing the last sentence…',
  done: 'Stopped',
  failed: 'Stopped',
};

export interface LiveDictationProps {
  /** Back to uploading and recording. */
  onClose: () => void;
  /** The dictation's transcript is in the list (to mark it there). */
  onKept?: (transcriptionId: string) => void;
}

/**
 * Live dictation (issue 20 item 6): starts listening when shown, shows the words being heard (provisional,
 * in italics) and the sentences kept, the time and the input level; Stop ends it, and once the server has
 * saved it the panel says it is in the transcripts list below (not before: issue 26 item 7). Errors
 * (microphone, credits, the connection) are said in the panel.
 */
export function LiveDictation({ onClose, onKept }: LiveDictationProps) {
  const id = useId();
  const dictation = useLiveDictation();
  const { status, text, error, elapsed, level, kept, start, stop, lookAgain } = dictation;
  const started = useRef(false);
  const keptId = kept.state === 'listed' ? kept.id : null;
  useEffect(() => {
    if (keptId) onKept?.(keptId);
  }, [keptId, onKept]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void start();
  }, [start]);
  // The focus follows the one action that matters: Stop while listening, "Dictate again" after.
  useEffect(() => {
    if (status === 'listening') document.getElementById(`${id}-stop`)?.focus();
    if (status === 'done' || status === 'failed') document.getElementById(`${id}-again`)?.focus();
  }, [status, id]);

  const active = status === 'connecting' || status === 'listening' || status === 'stopping';
  const empty = text.committed.length === 0 && text.partial === '';
  return (
    <Card aria-labelledby={`${id}-title`} className="flex flex-col">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 border-b border-line px-5 py-4">
        <div className="flex min-w-0 flex-col gap-0.5">
          <h2 id={`${id}-title`} className="text-base font-semibold">
            Live dictation
          </h2>
          <p className="text-xs text-fg-muted">
            English, with the built-in English model. Sentences are kept when you pause, and the dictation is
            saved as a transcript when you stop.
          </p>
        </div>
        <p className="flex items-center gap-2 text-sm font-medium" aria-live="polite">
          {status === 'listening' && (
            <span aria-hidden="true" className="size-2.5 rounded-full bg-danger motion-safe:animate-pulse" />
          )}
          {(status === 'connecting' || status === 'stopping') && (
            <SpinnerIcon aria-hidden="true" className="motion-safe:animate-spin" />
          )}
          {status === 'done' && <CheckCircleIcon aria-hidden="true" className="text-success" />}
          {statusLabels[status]}
        </p>
      </div>

      <div className="flex flex-col gap-4 px-5 py-4">
        <div className="flex flex-wrap items-center gap-x-5 gap-y-2">
          <p role="timer" aria-label="Time dictated" className="text-2xl font-semibold tabular-nums">
            {formatClipDuration(Math.floor(elapsed))}
          </p>
          <div className="flex min-w-0 flex-1 items-center gap-2">
            <span aria-hidden="true" className="text-xs text-fg-muted">
              Input
            </span>
            <div
              aria-hidden="true"
              data-meter=""
              className="h-1.5 w-full max-w-48 overflow-hidden rounded-full bg-line"
            >
              <div
                className="h-full rounded-full bg-accent transition-[width] duration-75"
                style={{ width: `${Math.round(level * 100)}%` }}
              />
            </div>
          </div>
        </div>

        <div
          role="log"
          aria-label="Dictated text"
          aria-live="polite"
          className="min-h-32 max-h-96 overflow-y-auto rounded-xl border border-line bg-subtle/40 p-4 text-base leading-7 break-words"
        >
          {empty ? (
            <p className="text-sm text-fg-muted">
              {status === 'connecting'
                ? 'Opening the microphone and the connection…'
                : active
                  ? 'Start speaking: the words appear here as you talk.'
                  : 'Nothing was transcribed.'}
            </p>
          ) : (
            <p>
              {text.committed.map((sentence, index) => (
                // Sentences are only ever appended, so their position is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
                <span key={index} data-committed="">
                  {sentence}{' '}
                </span>
              ))}
              {text.partial && (
                <span data-partial="" className="text-fg-muted italic">
                  <span className="sr-only">Still hearing: </span>
                  {text.partial}…
                </span>
              )}
            </p>
          )}
        </div>

        {error && <FormMessage>{error}</FormMessage>}
        {(status === 'done' || status === 'failed') && <KeptNote kept={kept} onLookAgain={lookAgain} />}

        <div className="flex flex-wrap items-center justify-end gap-2">
          {active ? (
            <Button id={`${id}-stop`} onClick={stop} disabled={status !== 'listening'}>
              <span aria-hidden="true" className="size-2.5 rounded-sm bg-current" />
              Stop
            </Button>
          ) : (
            <>
              <Button variant="secondary" onClick={onClose}>
                Close
              </Button>
              <Button id={`${id}-again`} onClick={() => void start()}>
                Dictate again
              </Button>
            </>
          )}
        </div>
      </div>
    </Card>
  );
}

/** Where the dictation's transcript is, said only once it is true (issue 26 item 7). */
function KeptNote({ kept, onLookAgain }: { kept: KeptTranscript; onLookAgain: () => void }) {
  if (kept.state === 'none') return null;
  return (
    <p role="status" className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-fg-muted">
      {kept.state === 'saving' && (
        <>
          <SpinnerIcon aria-hidden="true" className="motion-safe:animate-spin" />
          Saving it as a transcript…
        </>
      )}
      {kept.state === 'listed' && (
        <span>
          Kept as a transcript: it is in the list below.{' '}
          <Link to={transcriptPath(kept.id)} className="font-medium text-accent hover:underline">
            Open it
          </Link>
        </span>
      )}
      {kept.state === 'late' && (
        <>
          <span>The transcript is not in the list yet: the server may still be saving it.</span>
          <Button variant="ghost" size="sm" onClick={onLookAgain}>
            Look again
          </Button>
        </>
      )}
    </p>
  );
}
