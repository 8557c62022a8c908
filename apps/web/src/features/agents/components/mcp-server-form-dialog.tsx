import type { McpApprovalPolicy, McpTransport } from '@parla/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { getToastMessage, readFieldError } from '../../../lib/http-error';
import { Dialog } from '../../../ui/dialog';
import { SelectField } from '../../../ui/editor-fields';
import { FormMessage, TextField } from '../../../ui/field';
import { FormActions } from '../../../ui/form-actions';
import { useCreateMcpServer } from '../api/create-mcp-server';
import { useSecrets } from '../api/list-secrets';

export const APPROVAL_POLICY_CHOICES: ReadonlyArray<{ value: McpApprovalPolicy; label: string }> = [
  { value: 'require_approval_per_tool', label: 'Only the tools I approve' },
  { value: 'auto_approve_all', label: 'Every tool the server offers' },
  { value: 'require_approval_all', label: 'None until approved (each tool)' },
];

const TRANSPORT_CHOICES: ReadonlyArray<{ value: McpTransport; label: string }> = [
  { value: 'STREAMABLE_HTTP', label: 'Streamable HTTP' },
  { value: 'SSE', label: 'Server-sent events (SSE)' },
];

export interface McpServerFormDialogProps {
  open: boolean;
  onClose: () => void;
  onSaved: (name: string) => void;
}

/** Adds an MCP server: its address, transport, a token from the workspace's secrets, the approval policy. */
export function McpServerFormDialog({ open, onClose, onSaved }: McpServerFormDialogProps) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [transport, setTransport] = useState<McpTransport>('STREAMABLE_HTTP');
  const [secretId, setSecretId] = useState('');
  const [policy, setPolicy] = useState<McpApprovalPolicy>('require_approval_per_tool');
  const [errors, setErrors] = useState<{ name?: string; url?: string }>({});
  const create = useCreateMcpServer();
  const secrets = useSecrets();
  const { reset } = create;

  useEffect(() => {
    if (!open) return;
    setName('');
    setUrl('');
    setTransport('STREAMABLE_HTTP');
    setSecretId('');
    setPolicy('require_approval_per_tool');
    setErrors({});
    reset();
  }, [open, reset]);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const found: { name?: string; url?: string } = {};
    if (name.trim() === '') found.name = 'Name the server.';
    if (!/^https?:\/\/\S+$/i.test(url.trim()))
      found.url = 'Give the server’s address, starting with https://.';
    setErrors(found);
    if (found.name || found.url) return;
    create.mutate(
      {
        config: {
          name: name.trim(),
          url: url.trim(),
          transport,
          approval_policy: policy,
          ...(secretId ? { secret_token: { secret_id: secretId } } : {}),
        },
      },
      { onSuccess: () => onSaved(name.trim()) },
    );
  };
  const failure = create.error;
  const nameError = errors.name ?? readFieldError(failure, 'name');
  const urlError = errors.url ?? readFieldError(failure, 'url');
  const secretChoices = [
    { value: '', label: 'No token' },
    ...(secrets.data?.secrets ?? []).map((s) => ({ value: s.secret_id, label: s.name })),
  ];

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !create.isPending) onClose();
      }}
      title="Add MCP server"
      description="Agents you give this server can call the tools it offers, as the approval policy allows."
    >
      <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-4">
        <TextField
          label="Name"
          value={name}
          maxLength={200}
          placeholder="Orders"
          onChange={(event) => setName(event.target.value)}
          error={nameError}
        />
        <TextField
          label="Server URL"
          type="url"
          value={url}
          placeholder="https://mcp.example.com/mcp"
          onChange={(event) => setUrl(event.target.value)}
          error={urlError}
        />
        <SelectField
          label="Transport"
          value={transport}
          options={TRANSPORT_CHOICES}
          onChange={(event) => setTransport(event.target.value as McpTransport)}
        />
        <SelectField
          label="Bearer token"
          description="Sent as “Authorization: Bearer …”. Add secrets under Agent settings."
          value={secretId}
          options={secretChoices}
          onChange={(event) => setSecretId(event.target.value)}
        />
        <SelectField
          label="Tools agents may call"
          value={policy}
          options={APPROVAL_POLICY_CHOICES}
          onChange={(event) => setPolicy(event.target.value as McpApprovalPolicy)}
        />
        {failure && !nameError && !urlError && <FormMessage>{getToastMessage(failure)}</FormMessage>}
        <FormActions
          submitLabel={create.isPending ? 'Adding…' : 'Add server'}
          pending={create.isPending}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
