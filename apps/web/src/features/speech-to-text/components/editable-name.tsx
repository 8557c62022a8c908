import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Button } from '../../../ui/button';
import { inputClasses } from '../../../ui/field';

export interface EditableNameProps {
  /** What is being named, for the labels ("Title", "Name of Speaker 1"). */
  label: string;
  value: string;
  /** Saves a new value; the promise settles when the server has answered. */
  onSave: (value: string) => Promise<unknown>;
  /** How the value shows while not edited. */
  children: ReactNode;
  /** The rename button's text (an icon-less button keeps it readable). */
  buttonLabel?: string;
  maxLength?: number;
  /** Whether an empty value may be saved (a speaker's name goes back to its default). */
  allowEmpty?: boolean;
}

/** A name shown with a Rename button that turns it into a field: Enter or Save keeps, Escape or Cancel drops. */
export function EditableName({
  label,
  value,
  onSave,
  children,
  buttonLabel = 'Rename',
  maxLength = 200,
  allowEmpty = false,
}: EditableNameProps) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [saving, setSaving] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = draft.trim();
    if ((!next && !allowEmpty) || next === value) {
      setEditing(false);
      return;
    }
    setSaving(true);
    onSave(next).then(
      () => {
        setSaving(false);
        setEditing(false);
      },
      () => setSaving(false),
    );
  };

  if (!editing)
    return (
      <div className="flex min-w-0 items-center gap-2">
        {children}
        <Button
          variant="ghost"
          size="sm"
          aria-label={`${buttonLabel}: ${label}`}
          onClick={() => {
            setDraft(value);
            setEditing(true);
          }}
        >
          {buttonLabel}
        </Button>
      </div>
    );
  return (
    <form onSubmit={submit} className="flex min-w-0 flex-wrap items-center gap-2" aria-label={label}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        // biome-ignore lint/a11y/noAutofocus: the field appears because its Rename button was pressed.
        autoFocus
        value={draft}
        maxLength={maxLength}
        disabled={saving}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            setEditing(false);
          }
        }}
        className={`${inputClasses} h-9 min-w-0 flex-1 basis-40`}
      />
      <Button type="submit" size="sm" disabled={saving || (!allowEmpty && draft.trim() === '')}>
        Save
      </Button>
      <Button variant="ghost" size="sm" disabled={saving} onClick={() => setEditing(false)}>
        Cancel
      </Button>
    </form>
  );
}
