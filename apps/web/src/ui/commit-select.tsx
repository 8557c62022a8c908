import { type KeyboardEvent, type SelectHTMLAttributes, useRef, useState } from 'react';

/** Keys with which a closed select steps through its options (Chrome fires a change on each). */
const STEPPING_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

type Props = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & {
  value: string;
  /** The chosen value, once: on a pick with the pointer or the open list, or on Enter or leaving the field after stepping. */
  onCommit: (value: string) => void;
};

/**
 * A native select whose choice acts at once (a role, a workspace, a setting), made safe for the keyboard:
 * stepping through a closed select with the arrow keys or by typing only moves a draft, which is committed
 * with Enter or when focus leaves — so browsing the options never fires a save per step.
 */
export function CommitSelect({ value, onCommit, onKeyDown, onBlur, ...props }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const stepping = useRef(false);
  const commit = (next: string) => {
    setDraft(null);
    if (next !== value) onCommit(next);
  };
  return (
    <select
      {...props}
      value={draft ?? value}
      onKeyDown={(event: KeyboardEvent<HTMLSelectElement>) => {
        if (event.key === 'Enter' && draft !== null) {
          event.preventDefault();
          commit(draft);
        }
        stepping.current = STEPPING_KEYS.has(event.key) || event.key.length === 1;
        onKeyDown?.(event);
      }}
      onKeyUp={() => {
        stepping.current = false;
      }}
      onChange={(event) => {
        if (stepping.current) setDraft(event.target.value);
        else commit(event.target.value);
      }}
      onBlur={(event) => {
        if (draft !== null) commit(draft);
        onBlur?.(event);
      }}
    />
  );
}
