import type { InputHTMLAttributes, Ref } from 'react';

export interface HiddenFileInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className' | 'tabIndex' | 'onChange'> {
  ref?: Ref<HTMLInputElement>;
  /** The input's accessible name. */
  label: string;
  /** The files chosen; the input is emptied after, so choosing the same file again still reads as a change. */
  onFiles: (files: FileList | null) => void;
}

/** A file input kept out of sight and out of the tab order, opened by a button of the caller's. */
export function HiddenFileInput({ label, onFiles, ...props }: HiddenFileInputProps) {
  return (
    <input
      type="file"
      className="sr-only"
      tabIndex={-1}
      aria-label={label}
      {...props}
      onChange={(event) => {
        onFiles(event.target.files);
        event.target.value = '';
      }}
    />
  );
}
