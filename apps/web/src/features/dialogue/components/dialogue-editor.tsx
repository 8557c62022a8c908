import { DIALOGUE_MAX_LINES, type VoiceResponse } from '@parla/contracts';
import { clsx } from 'clsx';
import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { Button, getButtonClasses } from '../../../ui/button';
import { ArrowDownIcon, ArrowUpIcon, CloseIcon, SpeechBubblesIcon } from '../../../ui/icons';
import { VoicePicker } from '../../voices';
import { canAddLine, type DraftLine, moveLine, newLineKey, nextLineVoice } from '../dialogue-rules';

export interface DialogueEditorProps {
  lines: DraftLine[];
  onChange: (lines: DraftLine[]) => void;
  voices: readonly VoiceResponse[];
  /** Why a line cannot be spoken as it is (e.g. the model does not speak its voice's language). */
  lineProblem?: (line: DraftLine) => string | undefined;
}

/** Where focus goes once the lines have changed: a line's text, or one of its buttons. */
type FocusTarget = { key: string; part: 'text' | 'up' | 'down' } | { key: null; part: 'add' };

/**
 * The lines of a dialogue (history/voices §5): who says what, in order. Lines are added, removed and
 * moved with buttons or, in a line's text, Alt+↑ / Alt+↓; focus follows the line that moved.
 */
export function DialogueEditor({ lines, onChange, voices, lineProblem }: DialogueEditorProps) {
  const id = useId();
  const elements = useRef(new Map<string, HTMLElement>());
  const pendingFocus = useRef<FocusTarget | null>(null);
  const voiceIds = voices.map((v) => v.voice_id);
  const full = !canAddLine(lines);

  // After every render: a change of lines leaves where focus goes in pendingFocus.
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    const element = elements.current.get(target.key === null ? 'add' : `${target.key}:${target.part}`);
    // A move button that is now disabled (the line reached an end) hands focus to the line's text.
    if (element && !(element as HTMLButtonElement).disabled) element.focus();
    else if (target.key) elements.current.get(`${target.key}:text`)?.focus();
  });

  const register = (name: string) => (element: HTMLElement | null) => {
    if (element) elements.current.set(name, element);
    else elements.current.delete(name);
  };
  const addLine = () => {
    if (full) return;
    const line: DraftLine = { key: newLineKey(), text: '', voice_id: nextLineVoice(lines, voiceIds) };
    pendingFocus.current = { key: line.key, part: 'text' };
    onChange([...lines, line]);
  };
  const updateLine = (key: string, change: Partial<DraftLine>) =>
    onChange(lines.map((line) => (line.key === key ? { ...line, ...change } : line)));
  const removeLine = (index: number) => {
    const next = lines.filter((_, i) => i !== index);
    const neighbour = next[index] ?? next[index - 1];
    pendingFocus.current = neighbour ? { key: neighbour.key, part: 'text' } : { key: null, part: 'add' };
    onChange(next);
  };
  const move = (index: number, offset: number, part: 'text' | 'up' | 'down') => {
    const line = lines[index];
    if (!line) return;
    pendingFocus.current = { key: line.key, part };
    onChange(moveLine(lines, index, offset));
  };
  const handleTextKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>, index: number) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    move(index, event.key === 'ArrowUp' ? -1 : 1, 'text');
  };

  if (lines.length === 0) {
    return (
      <div className="flex flex-col items-center gap-4 px-6 py-6 text-center sm:py-14">
        <span
          aria-hidden="true"
          className="flex size-12 items-center justify-center rounded-full bg-subtle text-fg-muted"
        >
          <SpeechBubblesIcon width="1.5em" height="1.5em" strokeWidth={1.75} />
        </span>
        <div className="flex max-w-sm flex-col gap-1">
          <h2 className="text-base font-semibold">No lines yet</h2>
          <p className="text-sm text-fg-muted">
            Write who says what, one line per turn, each in its own voice. Audio tags such as [whispers] or
            [pause] set how a line is delivered.
          </p>
        </div>
        <button
          type="button"
          ref={register('add')}
          className={getButtonClasses('primary', 'md')}
          onClick={addLine}
          disabled={voices.length === 0}
        >
          Add the first line
        </button>
      </div>
    );
  }

  return (
    <div className="flex flex-col">
      <p id={`${id}-keys`} className="sr-only">
        Alt plus arrow up or down moves the line.
      </p>
      <ol aria-label="Dialogue lines" className="flex flex-col divide-y divide-line">
        {lines.map((line, index) => {
          const number = index + 1;
          const problem = lineProblem?.(line);
          const problemId = `${id}-${line.key}-problem`;
          return (
            <li key={line.key} className="group flex gap-3 px-4 py-4 sm:px-5">
              <span
                aria-hidden="true"
                className="mt-2 flex size-6 shrink-0 items-center justify-center rounded-full bg-subtle text-xs font-medium text-fg-muted tabular-nums"
              >
                {number}
              </span>
              <div className="flex min-w-0 flex-1 flex-col gap-2">
                <div className="flex items-center gap-2">
                  <div className="w-60 max-w-full min-w-0">
                    <VoicePicker
                      compact
                      label={`Voice of line ${number}`}
                      voices={voices}
                      selected={voices.find((v) => v.voice_id === line.voice_id)}
                      invalid={Boolean(problem)}
                      onSelect={(voice) => updateLine(line.key, { voice_id: voice.voice_id })}
                    />
                  </div>
                  <div className="ml-auto flex shrink-0 items-center gap-0.5">
                    <button
                      type="button"
                      ref={register(`${line.key}:up`)}
                      className={clsx(getButtonClasses('ghost', 'icon'), 'size-8 text-base')}
                      aria-label={`Move line ${number} up`}
                      disabled={index === 0}
                      onClick={() => move(index, -1, 'up')}
                    >
                      <ArrowUpIcon />
                    </button>
                    <button
                      type="button"
                      ref={register(`${line.key}:down`)}
                      className={clsx(getButtonClasses('ghost', 'icon'), 'size-8 text-base')}
                      aria-label={`Move line ${number} down`}
                      disabled={index === lines.length - 1}
                      onClick={() => move(index, 1, 'down')}
                    >
                      <ArrowDownIcon />
                    </button>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-8 text-base hover:text-danger"
                      aria-label={`Remove line ${number}`}
                      onClick={() => removeLine(index)}
                    >
                      <CloseIcon />
                    </Button>
                  </div>
                </div>
                <textarea
                  ref={register(`${line.key}:text`)}
                  aria-label={`Text of line ${number}`}
                  aria-describedby={clsx(`${id}-keys`, problem && problemId)}
                  aria-invalid={problem ? true : undefined}
                  value={line.text}
                  rows={2}
                  placeholder={number === 1 ? 'What is said first…' : 'And the answer…'}
                  onChange={(event) => updateLine(line.key, { text: event.target.value })}
                  onKeyDown={(event) => handleTextKeyDown(event, index)}
                  className={clsx(
                    'field-sizing-content min-h-16 w-full resize-y rounded-lg border border-transparent bg-subtle/60 px-3 py-2 text-base leading-7 text-fg',
                    'placeholder:text-fg-muted/70 hover:border-line',
                    'focus-visible:border-ring focus-visible:bg-surface focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30',
                    'aria-invalid:border-danger',
                  )}
                />
                {problem && (
                  <p id={problemId} className="text-sm text-danger">
                    {problem}
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap items-center gap-3 border-t border-line px-4 py-3 sm:px-5">
        <button
          type="button"
          ref={register('add')}
          className={getButtonClasses('secondary', 'sm')}
          onClick={addLine}
          disabled={full}
        >
          <span aria-hidden="true" className="text-base leading-none">
            +
          </span>
          Add line
        </button>
        <p
          className={clsx('text-xs tabular-nums', full ? 'text-warning' : 'text-fg-muted')}
          aria-live="polite"
        >
          {full
            ? `A dialogue holds at most ${DIALOGUE_MAX_LINES} lines.`
            : `${lines.length} / ${DIALOGUE_MAX_LINES} lines`}
        </p>
      </div>
    </div>
  );
}
