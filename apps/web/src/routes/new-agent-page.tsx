import { clsx } from 'clsx';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { AGENTS_PATH, agentEditorPath } from '../features/agents/agent-paths';
import {
  AGENT_TEMPLATES,
  type AgentTemplate,
  templateCreateRequest,
} from '../features/agents/agent-templates';
import { useCreateAgent } from '../features/agents/api/create-agent';
import { AgentsPageHeader } from '../features/agents/components/agents-nav';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { getToastMessage, readFieldError } from '../lib/http-error';
import { FormMessage, TextField } from '../ui/field';
import { FormActions } from '../ui/form-actions';

/**
 * `/app/conversational-ai/new` (issue 28 item 7 "new agent from templates"): pick a starting point — blank,
 * a support agent, a tutor or a receptionist, each a name, a greeting and a prompt — name it, and the agent
 * is created and opened in the editor.
 */
export default function NewAgentPage() {
  return (
    <RequireSignIn>
      <NewAgent />
    </RequireSignIn>
  );
}

function NewAgent() {
  const id = useId();
  const navigate = useNavigate();
  const create = useCreateAgent();
  const [template, setTemplate] = useState<AgentTemplate>(AGENT_TEMPLATES[0] as AgentTemplate);
  const [name, setName] = useState(template.name);
  // The name follows the template until the user types one of their own.
  const [nameTouched, setNameTouched] = useState(false);
  const [nameError, setNameError] = useState<string>();

  const choose = (next: AgentTemplate) => {
    setTemplate(next);
    if (!nameTouched) setName(next.name);
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError('Give the agent a name.');
      return;
    }
    setNameError(undefined);
    create.mutate(
      { ...templateCreateRequest(template), name: trimmed },
      { onSuccess: ({ agent_id }) => void navigate(agentEditorPath(agent_id)) },
    );
  };
  const serverNameError = readFieldError(create.error, 'name');

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <AgentsPageHeader
        title="New agent"
        description="Choose a starting point. You can change everything afterwards in the editor."
      />
      <form onSubmit={handleSubmit} className="flex flex-col gap-6" noValidate>
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-3 text-lg font-semibold tracking-tight">Template</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {AGENT_TEMPLATES.map((option) => {
              const checked = option.id === template.id;
              return (
                <label
                  key={option.id}
                  className={clsx(
                    'flex cursor-pointer gap-3 rounded-xl border bg-surface p-4 transition-colors has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring',
                    checked ? 'border-fg shadow-sm' : 'border-line hover:bg-subtle',
                  )}
                >
                  <input
                    type="radio"
                    name={`${id}-template`}
                    value={option.id}
                    checked={checked}
                    onChange={() => choose(option)}
                    className="mt-1 accent-accent"
                    aria-describedby={`${id}-${option.id}-summary`}
                  />
                  <span className="flex min-w-0 flex-col gap-1">
                    <span className="text-sm font-semibold">{option.title}</span>
                    <span id={`${id}-${option.id}-summary`} className="text-sm text-fg-muted">
                      {option.summary}
                    </span>
                    {option.firstMessage && (
                      <span className="text-xs text-fg-muted italic">“{option.firstMessage}”</span>
                    )}
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>
        <TextField
          label="Agent name"
          className="max-w-md"
          value={name}
          maxLength={200}
          onChange={(event) => {
            setName(event.target.value);
            setNameTouched(true);
          }}
          error={nameError ?? serverNameError}
        />
        {create.isError && !serverNameError && <FormMessage>{getToastMessage(create.error)}</FormMessage>}
        <FormActions
          className="justify-start"
          submitLabel={create.isPending ? 'Creating…' : 'Create agent'}
          pending={create.isPending}
          onCancel={() => void navigate(AGENTS_PATH)}
        />
      </form>
    </div>
  );
}
