import { KB_MAX_FILE_BYTES } from '@parla/contracts';
import { clsx } from 'clsx';
import { type DragEvent, type FormEvent, useId, useRef, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, TextField, textareaClasses } from '../../../ui/field';
import { HiddenFileInput } from '../../../ui/hidden-file-input';
import { SpinnerIcon } from '../../../ui/icons';
import { SegmentedControl } from '../../../ui/segmented-control';
import { useCreateFileDocument } from '../api/create-file-document';
import { useCreateTextDocument } from '../api/create-text-document';
import { useCreateUrlDocument } from '../api/create-url-document';
import { formatBytes, kbFileAccept, kbFileProblem, kbTextProblem, kbUrlProblem } from '../kb-rules';

export type AddSource = 'file' | 'url' | 'text';

const sourceOptions = [
  { value: 'file', label: 'File' },
  { value: 'url', label: 'Web page' },
  { value: 'text', label: 'Text' },
] as const;

/**
 * Adds a document to the knowledge base (issue 28 item 3): from a file dropped or chosen (pdf, docx, txt,
 * html, md, epub), from a web page the server reads, or from pasted text. What the rules can tell before
 * sending is said under the field; what the server refuses is said above the buttons in its own words.
 */
export function AddDocumentDialog({
  open,
  initialSource = 'file',
  onClose,
  onAdded,
}: {
  open: boolean;
  initialSource?: AddSource;
  onClose: () => void;
  /** The new document's id: the page opens it. */
  onAdded: (documentId: string) => void;
}) {
  const id = useId();
  const [source, setSource] = useState<AddSource>(initialSource);
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const fromFile = useCreateFileDocument();
  const fromUrl = useCreateUrlDocument();
  const fromText = useCreateTextDocument();
  const pending = fromFile.isPending || fromUrl.isPending || fromText.isPending;

  const close = () => {
    if (pending) return;
    setFile(null);
    setUrl('');
    setText('');
    setName('');
    setProblem(null);
    setFailure(null);
    onClose();
  };

  const choose = (chosen: File | undefined | null) => {
    setFailure(null);
    if (!chosen) return;
    const wrong = kbFileProblem(chosen);
    setProblem(wrong);
    setFile(wrong ? null : chosen);
  };

  const handleDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!pending) choose(event.dataTransfer.files[0]);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setFailure(null);
    const options = {
      onSuccess: (added: { id: string }) => {
        onAdded(added.id);
        close();
      },
      onError: (error: unknown) => setFailure(getToastMessage(error)),
    };
    const trimmedName = name.trim() || undefined;
    if (source === 'file') {
      const wrong = file ? null : 'Choose a file to add.';
      setProblem(wrong);
      if (file) fromFile.mutate({ file, name: trimmedName }, options);
    } else if (source === 'url') {
      const wrong = kbUrlProblem(url);
      setProblem(wrong);
      if (!wrong) fromUrl.mutate({ url: url.trim(), name: trimmedName }, options);
    } else {
      const wrong = kbTextProblem(text);
      setProblem(wrong);
      if (!wrong) fromText.mutate({ text, name: trimmedName }, options);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && close()}
      title="Add a document"
      description="Agents that use the document answer from its text; it is split into passages and indexed for search as it is added."
      size="xl"
    >
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <SegmentedControl
          label="Add from"
          options={sourceOptions}
          value={source}
          onChange={(next) => {
            setSource(next);
            setProblem(null);
            setFailure(null);
          }}
        />

        {source === 'file' && (
          <section
            aria-label="File to add"
            onDragOver={(event) => {
              event.preventDefault();
              if (!pending) setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={handleDrop}
            className={clsx(
              'flex min-h-40 flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors',
              dragging ? 'border-accent bg-accent/5' : 'border-line',
            )}
          >
            {file ? (
              <p className="text-sm">
                <span className="font-medium [overflow-wrap:anywhere]">{file.name}</span>{' '}
                <span className="text-fg-muted">({formatBytes(file.size)})</span>
              </p>
            ) : (
              <div className="flex flex-col gap-1">
                <p className="font-medium">Drop a file here</p>
                <p className="text-sm text-fg-muted">
                  PDF, Word (.docx), text, HTML, Markdown or EPUB, up to {formatBytes(KB_MAX_FILE_BYTES)}.
                </p>
              </div>
            )}
            <Button variant="secondary" disabled={pending} onClick={() => fileInput.current?.click()}>
              {file ? 'Choose another file' : 'Choose a file'}
            </Button>
            <HiddenFileInput
              ref={fileInput}
              label="Document file"
              accept={kbFileAccept}
              onFiles={(files) => choose(files?.[0])}
            />
          </section>
        )}

        {source === 'url' && (
          <TextField
            label="Page address"
            type="url"
            inputMode="url"
            placeholder="https://example.com/help/returns"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            description="The server reads the page once, now, and keeps its text."
            maxLength={2048}
          />
        )}

        {source === 'text' && (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-text`} className="text-sm font-medium">
              Document text
            </label>
            <textarea
              id={`${id}-text`}
              rows={8}
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder="Opening hours, prices, the answers to common questions…"
              className={textareaClasses}
            />
          </div>
        )}

        <TextField
          label="Name (optional)"
          value={name}
          maxLength={200}
          onChange={(event) => setName(event.target.value)}
          placeholder={
            source === 'file'
              ? file
                ? file.name
                : 'Named after the file'
              : source === 'url'
                ? 'The page’s title'
                : 'Named after its first words'
          }
        />

        {problem && <FormMessage>{problem}</FormMessage>}
        {failure && <FormMessage>{failure}</FormMessage>}

        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <Button variant="secondary" onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending && <SpinnerIcon className="motion-safe:animate-spin" />}
            {pending ? (source === 'url' ? 'Reading the page…' : 'Adding…') : 'Add document'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
