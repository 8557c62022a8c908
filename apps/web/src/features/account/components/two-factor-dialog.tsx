import { useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { type FormEvent, useEffect, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, TextField } from '../../../ui/field';
import { enrollTotp, verifyTotp } from '../api/update-mfa-factors';

type Stage =
  | { name: 'loading' }
  | { name: 'scan'; secret: string; qrSvg: string }
  | { name: 'backup'; backupCode: string }
  | { name: 'failed'; message: string };

/** The backup code, shown once, with a copy button. */
export function BackupCodePanel({ code }: { code: string }) {
  const { toast } = useToast();
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-fg-muted">
        Keep this backup code somewhere safe. If you lose your device, it turns two-factor authentication off
        so you can sign in. It is shown only now.
      </p>
      <div className="flex items-center gap-2">
        <code className="flex-1 rounded-lg border border-line bg-subtle px-3 py-2 text-center font-mono text-base tracking-wider">
          {code}
        </code>
        <Button
          variant="secondary"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(code)
              .then(() => toast({ title: 'Backup code copied.', variant: 'success' }))
          }
        >
          Copy
        </Button>
      </div>
    </div>
  );
}

/**
 * `/app/settings?dialog=add-2fa` (accounts §2): enrol an authenticator app (QR code and secret), confirm
 * with a code, then see the backup code once.
 */
export function TwoFactorDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ name: 'loading' });
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setStage({ name: 'loading' });
    setCode('');
    setError(undefined);
    enrollTotp()
      .then(async (answer) => {
        const url = answer.otpauth_url ?? '';
        const qrSvg = await QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
        if (!cancelled) setStage({ name: 'scan', secret: answer.totp_secret ?? '', qrSvg });
      })
      .catch((caught: unknown) => {
        if (!cancelled) setStage({ name: 'failed', message: getToastMessage(caught) });
      });
    return () => {
      cancelled = true;
    };
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(undefined);
    verifyTotp(code.trim())
      .then(
        (answer) => {
          setStage({ name: 'backup', backupCode: answer.backup_code ?? '' });
          void queryClient.invalidateQueries({ queryKey: ['users', 'me'] });
        },
        (caught: unknown) => setError(getToastMessage(caught)),
      )
      .finally(() => setBusy(false));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={stage.name === 'backup' ? 'Two-factor authentication is on' : 'Set up two-factor authentication'}
      footer={
        stage.name === 'backup' || stage.name === 'failed' ? (
          <Button onClick={onClose}>Done</Button>
        ) : undefined
      }
    >
      {stage.name === 'loading' && (
        <p className="text-sm text-fg-muted" role="status">
          Preparing…
        </p>
      )}
      {stage.name === 'failed' && <FormMessage>{stage.message}</FormMessage>}
      {stage.name === 'backup' && <BackupCodePanel code={stage.backupCode} />}
      {stage.name === 'scan' && (
        <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
          <p className="text-sm text-fg-muted">
            Scan this code with an authenticator app (1Password, Google Authenticator, Authy…), then enter the
            6-digit code it shows.
          </p>
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(stage.qrSvg)}`}
            alt="QR code for your authenticator app"
            className="mx-auto size-44 rounded-lg bg-white p-2"
          />
          <p className="text-center text-xs text-fg-muted">
            Or enter this key: <code className="font-mono break-all text-fg">{stage.secret}</code>
          </p>
          <TextField
            label="Authentication code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            value={code}
            error={error}
            onChange={(event) => setCode(event.target.value)}
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" aria-disabled={busy}>
              {busy ? 'Checking…' : 'Turn on'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
