import { AllowlistItem } from '@parla/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../ui/button';
import { EditorSection, NumberField } from '../../../ui/editor-fields';
import { inputClasses } from '../../../ui/field';
import { Switch } from '../../../ui/switch';
import { errorAt, OVERRIDE_FIELDS, overrideAllowed, withOverride, withPlatform } from '../agent-editor-rules';
import type { EditorTabProps } from './editor-tab-props';

/** Retention offered when "keep forever" is switched off. */
const DEFAULT_RETENTION_DAYS = 30;

/** The Security tab: who may start a conversation, from where, what a client may change, and what is kept. */
export function SecurityTab({ draft, edit, errors }: EditorTabProps) {
  const id = useId();
  const { auth, overrides, privacy } = draft.platform_settings;
  const [host, setHost] = useState('');
  const [hostError, setHostError] = useState<string>();
  const allowlistError = errorAt(errors, 'platform_settings.auth.allowlist');

  const handleAddHost = (event: FormEvent) => {
    event.preventDefault();
    const parsed = AllowlistItem.safeParse({ hostname: host });
    if (!parsed.success) {
      setHostError(parsed.error.issues[0]?.message ?? 'Enter a host name.');
      return;
    }
    const hostname = parsed.data.hostname;
    if (auth.allowlist.some((item) => item.hostname === hostname)) {
      setHostError(`${hostname} is already allowed.`);
      return;
    }
    setHostError(undefined);
    setHost('');
    edit((d) =>
      withPlatform(d, 'auth', { allowlist: [...d.platform_settings.auth.allowlist, { hostname }] }),
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <EditorSection title="Authentication">
        <Switch
          label="Require authentication"
          description="On: a conversation starts only with a signed URL your server asks for with an API key. Off: anyone who has the agent’s id (the widget on your site) may talk to it."
          checked={auth.enable_auth}
          onCheckedChange={(enable_auth) => edit((d) => withPlatform(d, 'auth', { enable_auth }))}
        />
      </EditorSection>
      <EditorSection
        title="Allowed origins"
        description="The sites whose pages may open a conversation with this agent. With none listed, any site may."
      >
        <form onSubmit={handleAddHost} className="flex flex-col gap-1.5" noValidate>
          <label htmlFor={`${id}-host`} className="text-sm font-medium">
            Add a host
          </label>
          <div className="flex flex-wrap gap-2">
            <input
              id={`${id}-host`}
              className={`${inputClasses} min-w-0 flex-[1_1_14rem]`}
              placeholder="example.com or *.example.com"
              value={host}
              aria-invalid={hostError ? true : undefined}
              aria-describedby={hostError ? `${id}-host-error` : undefined}
              onChange={(event) => setHost(event.target.value)}
            />
            <Button type="submit" variant="secondary">
              Add
            </Button>
          </div>
          {hostError && (
            <p id={`${id}-host-error`} role="alert" className="text-sm text-danger">
              {hostError}
            </p>
          )}
        </form>
        {allowlistError && (
          <p role="alert" className="text-sm text-danger">
            {allowlistError}
          </p>
        )}
        {auth.allowlist.length > 0 && (
          <ul
            aria-label="Allowed origins"
            className="flex flex-col divide-y divide-line rounded-lg border border-line"
          >
            {auth.allowlist.map((item) => (
              <li key={item.hostname} className="flex items-center justify-between gap-3 px-3 py-2">
                <span className="truncate font-mono text-sm">{item.hostname}</span>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove ${item.hostname}`}
                  onClick={() =>
                    edit((d) =>
                      withPlatform(d, 'auth', {
                        allowlist: d.platform_settings.auth.allowlist.filter(
                          (h) => h.hostname !== item.hostname,
                        ),
                      }),
                    )
                  }
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <Switch
          label="Refuse connections without an Origin"
          description="With origins listed: also refuse clients that send no Origin header (servers, apps)."
          checked={auth.require_origin_header}
          disabled={auth.allowlist.length === 0}
          onCheckedChange={(require_origin_header) =>
            edit((d) => withPlatform(d, 'auth', { require_origin_header }))
          }
        />
      </EditorSection>
      <EditorSection
        title="Overrides"
        description="What a client may change for one conversation when it starts. Everything is fixed unless allowed here."
      >
        <fieldset className="grid gap-2 sm:grid-cols-2">
          <legend className="sr-only">Fields a client may override</legend>
          {OVERRIDE_FIELDS.map((field) => (
            <label key={field.path.join('.')} className="flex cursor-pointer items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-accent"
                checked={overrideAllowed(overrides, field.path)}
                onChange={(event) => {
                  const allowed = event.target.checked;
                  edit((d) => ({
                    ...d,
                    platform_settings: {
                      ...d.platform_settings,
                      overrides: withOverride(d.platform_settings.overrides, field.path, allowed),
                    },
                  }));
                }}
              />
              {field.label}
            </label>
          ))}
        </fieldset>
        <Switch
          label="Fetch initiation data from the workspace’s webhook"
          description="When a conversation starts, ask the conversation initiation webhook (Agent settings) for dynamic variables and overrides. Its overrides must be allowed above."
          checked={overrides.enable_conversation_initiation_client_data_from_webhook === true}
          onCheckedChange={(enabled) =>
            edit((d) => ({
              ...d,
              platform_settings: {
                ...d.platform_settings,
                overrides: {
                  ...d.platform_settings.overrides,
                  enable_conversation_initiation_client_data_from_webhook: enabled,
                },
              },
            }))
          }
        />
      </EditorSection>
      <EditorSection title="Privacy">
        <Switch
          label="Record audio"
          description="Keep the conversation’s audio, to play it back in the call history."
          checked={privacy.record_voice}
          onCheckedChange={(record_voice) => edit((d) => withPlatform(d, 'privacy', { record_voice }))}
        />
        <Switch
          label="Keep conversations forever"
          description="Off: conversations are deleted after the number of days below."
          checked={privacy.retention_days === -1}
          onCheckedChange={(forever) =>
            edit((d) => withPlatform(d, 'privacy', { retention_days: forever ? -1 : DEFAULT_RETENTION_DAYS }))
          }
        />
        {privacy.retention_days !== -1 && (
          <NumberField
            label="Retention (days)"
            className="max-w-48"
            value={privacy.retention_days}
            onValueChange={(retention_days) => edit((d) => withPlatform(d, 'privacy', { retention_days }))}
            description="1 to 3,650 days."
            error={errorAt(errors, 'platform_settings.privacy.retention_days')}
          />
        )}
      </EditorSection>
    </div>
  );
}
