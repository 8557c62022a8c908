import { useState } from 'react';
import { Button } from '../../../ui/button';

/** The embed code to paste into a page, with a copy button (history/voices §7 "publish and embed code"). */
export function SnippetBox({ snippet }: { snippet: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-col gap-2">
      <pre className="max-w-full overflow-x-auto rounded-lg border border-line bg-surface-muted p-3 font-mono text-xs text-fg whitespace-pre-wrap break-all">
        {snippet}
      </pre>
      <div className="flex items-center gap-2">
        <Button
          size="sm"
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(snippet).then(() => setCopied(true));
          }}
        >
          Copy embed code
        </Button>
        <span aria-live="polite" className="text-sm text-fg-muted">
          {copied ? 'Copied' : ''}
        </span>
      </div>
    </div>
  );
}
