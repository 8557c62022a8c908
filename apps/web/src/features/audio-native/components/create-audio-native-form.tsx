import { useState } from 'react';
import { HttpError } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { SegmentedControl } from '../../../ui/segmented-control';
import { useCreateAudioNative } from '../api';
import { SnippetBox } from './snippet-box';

type Source = 'text' | 'file';

/** Make a project from pasted text or a file (TXT, HTML, Markdown, PDF, DOCX, EPUB); it converts at once. */
export function CreateAudioNativeForm() {
  const create = useCreateAudioNative();
  const [source, setSource] = useState<Source>('text');
  const [name, setName] = useState('');
  const [author, setAuthor] = useState('');
  const [text, setText] = useState('');
  const [file, setFile] = useState<File>();
  const [errors, setErrors] = useState<{ name?: string; content?: string }>({});

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const next: typeof errors = {};
    if (!name.trim()) next.name = 'Give the article a name.';
    if (source === 'text' && !text.trim()) next.content = 'Paste the article’s text.';
    if (source === 'file' && !file) next.content = 'Choose the article’s file.';
    setErrors(next);
    if (next.name || next.content) return;
    create.mutate({
      name: name.trim(),
      title: name.trim(),
      ...(author.trim() ? { author: author.trim() } : {}),
      content: source === 'file' && file ? { kind: 'file', file } : { kind: 'text', text },
    });
  }

  const failure =
    create.error instanceof HttpError ? create.error.message : create.error ? String(create.error) : '';
  return (
    <form aria-label="New Audio Native player" onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />
      <TextField label="Author (optional)" value={author} onChange={(e) => setAuthor(e.target.value)} />
      <SegmentedControl
        label="Article from"
        value={source}
        onChange={setSource}
        options={[
          { value: 'text', label: 'Text' },
          { value: 'file', label: 'File' },
        ]}
      />
      {source === 'text' ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor="an-text" className="text-sm font-medium text-fg">
            Article text
          </label>
          <textarea
            id="an-text"
            rows={6}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={errors.content ? true : undefined}
            className="w-full rounded-lg border border-line bg-surface p-3 text-sm text-fg"
          />
        </div>
      ) : (
        <div className="flex flex-col gap-1.5">
          <label htmlFor="an-file" className="text-sm font-medium text-fg">
            Article file
          </label>
          <input
            id="an-file"
            type="file"
            accept=".txt,.md,.html,.htm,.pdf,.docx,.epub"
            onChange={(e) => setFile(e.target.files?.[0])}
            className="text-sm text-fg"
          />
        </div>
      )}
      {errors.content ? (
        <p role="alert" className="text-sm text-danger">
          {errors.content}
        </p>
      ) : null}
      <p className="text-sm text-fg-muted">
        To voice a page that is already online, embed the player on it and use{' '}
        <code className="font-mono">POST /v1/audio-native/content</code> with its address.
      </p>
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create and convert'}
        </Button>
      </div>
      {failure ? (
        <p role="alert" className="text-sm text-danger">
          {failure}
        </p>
      ) : null}
      {create.data ? (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-fg">Created. Paste this where the player should appear:</p>
          <SnippetBox snippet={create.data.html_snippet} />
        </div>
      ) : null}
    </form>
  );
}
