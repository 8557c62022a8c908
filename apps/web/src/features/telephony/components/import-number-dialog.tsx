import { E164 } from '@parla/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { getToastMessage, readFieldError } from '../../../lib/http-error';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, TextField } from '../../../ui/field';
import { FormActions } from '../../../ui/form-actions';
import { useImportTwilioNumber } from '../api/create-phone-number';

type Errors = { phoneNumber?: string; label?: string; sid?: string; token?: string };

/** Imports a Twilio number with its account SID and auth token (sealed; never shown again). */
export function ImportNumberDialog(props: {
  open: boolean;
  onClose: () => void;
  onSaved: (label: string) => void;
}) {
  const { open, onClose, onSaved } = props;
  const [phoneNumber, setPhoneNumber] = useState('');
  const [label, setLabel] = useState('');
  const [sid, setSid] = useState('');
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const create = useImportTwilioNumber();
  const { reset } = create;

  useEffect(() => {
    if (!open) return;
    setPhoneNumber('');
    setLabel('');
    setSid('');
    setToken('');
    setErrors({});
    reset();
  }, [open, reset]);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const number = phoneNumber.replace(/[\s().-]/g, '');
    const found: Errors = {};
    if (!E164.test(number)) found.phoneNumber = 'Enter the number in E.164 form, e.g. +14155550123.';
    if (!label.trim()) found.label = 'Give the number a label.';
    if (!/^AC[0-9a-fA-F]{32}$/.test(sid.trim()))
      found.sid =
        'The account SID starts with AC and has 32 hexadecimal digits (Twilio console → Account info).';
    if (token.trim().length < 8) found.token = 'Enter the account’s auth token.';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(
      { phoneNumber: number, label: label.trim(), sid: sid.trim(), token: token.trim() },
      { onSuccess: () => onSaved(label.trim()) },
    );
  };
  const failure = create.error;
  const fieldError = (field: string) => readFieldError(failure, field);
  const shown = {
    phoneNumber: errors.phoneNumber ?? fieldError('phone_number'),
    label: errors.label ?? fieldError('label'),
    sid: errors.sid ?? fieldError('sid'),
    token: errors.token ?? fieldError('token'),
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !create.isPending) onClose();
      }}
      title="Import a Twilio number"
      description="A number you own in Twilio. The auth token is stored encrypted and never shown again."
    >
      <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-4">
        <TextField
          label="Phone number"
          inputMode="tel"
          placeholder="+14155550123"
          value={phoneNumber}
          onChange={(event) => setPhoneNumber(event.target.value)}
          error={shown.phoneNumber}
        />
        <TextField
          label="Label"
          maxLength={100}
          placeholder="Support line"
          value={label}
          onChange={(event) => setLabel(event.target.value)}
          error={shown.label}
        />
        <TextField
          label="Account SID"
          autoComplete="off"
          spellCheck={false}
          placeholder="AC…"
          value={sid}
          onChange={(event) => setSid(event.target.value)}
          error={shown.sid}
        />
        <TextField
          label="Auth token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(event) => setToken(event.target.value)}
          error={shown.token}
        />
        {failure && !Object.values(shown).some(Boolean) && (
          <FormMessage>{getToastMessage(failure)}</FormMessage>
        )}
        <FormActions
          submitLabel={create.isPending ? 'Importing…' : 'Import number'}
          pending={create.isPending}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
