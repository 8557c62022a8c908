import { WIDGET_PLACEMENTS, WIDGET_VARIANTS } from '@parla/contracts';
import { useId } from 'react';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { EditorSection, SelectField } from '../../../ui/editor-fields';
import { inputClasses, TextField } from '../../../ui/field';
import { CopyIcon } from '../../../ui/icons';
import { Switch } from '../../../ui/switch';
import { type AgentDraft, errorAt, widgetSnippet, withPlatform } from '../agent-editor-rules';
import type { EditorTabProps } from './editor-tab-props';

type Widget = AgentDraft['platform_settings']['widget'];
type ColorKey = 'bg_color' | 'text_color' | 'btn_color' | 'btn_text_color' | 'border_color' | 'focus_color';
type TextKey = 'action_text' | 'start_call_text' | 'end_call_text' | 'listening_text' | 'speaking_text';
type FlagKey = 'transcript_enabled' | 'text_input_enabled' | 'mic_muting_enabled' | 'disable_banner';

const COLORS: ReadonlyArray<{ key: ColorKey; label: string }> = [
  { key: 'bg_color', label: 'Background' },
  { key: 'text_color', label: 'Text' },
  { key: 'btn_color', label: 'Button' },
  { key: 'btn_text_color', label: 'Button text' },
  { key: 'border_color', label: 'Border' },
  { key: 'focus_color', label: 'Focus ring' },
];
const TEXTS: ReadonlyArray<{ key: TextKey; label: string; placeholder: string }> = [
  { key: 'action_text', label: 'Invitation', placeholder: 'Need help?' },
  { key: 'start_call_text', label: 'Start button', placeholder: 'Start a call' },
  { key: 'end_call_text', label: 'End button', placeholder: 'End' },
  { key: 'listening_text', label: 'While listening', placeholder: 'Listening' },
  { key: 'speaking_text', label: 'While speaking', placeholder: 'Talk to interrupt' },
];
const FLAGS: ReadonlyArray<{ key: FlagKey; label: string; description: string }> = [
  {
    key: 'transcript_enabled',
    label: 'Show the transcript',
    description: 'The words of both sides appear as they are said.',
  },
  { key: 'text_input_enabled', label: 'Allow typing', description: 'Visitors may type instead of speaking.' },
  {
    key: 'mic_muting_enabled',
    label: 'Mute button',
    description: 'Visitors may mute their microphone during a call.',
  },
  {
    key: 'disable_banner',
    label: 'Hide the “Powered by” line',
    description: 'The widget shows no credit line.',
  },
];

const PLACEMENT_LABELS: Record<string, string> = {
  'top-left': 'Top left',
  top: 'Top',
  'top-right': 'Top right',
  'bottom-left': 'Bottom left',
  bottom: 'Bottom',
  'bottom-right': 'Bottom right',
};
const VARIANT_LABELS: Record<string, string> = {
  tiny: 'Tiny (a button)',
  compact: 'Compact',
  full: 'Full',
  expandable: 'Expandable',
};

/** A six-digit colour for the native picker, which reads no other form. */
function pickerValue(color: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  return /^#[0-9a-f]{6}/i.test(color) ? color.slice(0, 7) : '#000000';
}

function ColorField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          type="color"
          aria-label={`${label} colour picker`}
          value={pickerValue(value)}
          onChange={(event) => onChange(event.target.value)}
          className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-line bg-surface p-1"
        />
        <input
          id={id}
          className={inputClasses}
          value={value}
          maxLength={9}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.value.trim())}
        />
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

export interface WidgetTabProps extends EditorTabProps {
  agentId: string;
  /** This server's address, which the snippet loads the widget from. */
  origin: string;
}

/** The Widget tab: how the call button looks on a site, and the HTML that puts it there. */
export function WidgetTab({ draft, edit, errors, agentId, origin }: WidgetTabProps) {
  const { toast } = useToast();
  const widget = draft.platform_settings.widget;
  const set = (patch: Partial<Widget>) => edit((d) => withPlatform(d, 'widget', patch));
  const at = (key: string) => errorAt(errors, `platform_settings.widget.${key}`);
  const snippet = widgetSnippet(agentId, origin);
  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      toast({ title: 'Embed code copied', variant: 'success' });
    } catch {
      toast({
        title: 'Could not copy',
        description: 'Select the code and copy it yourself.',
        variant: 'error',
      });
    }
  };
  return (
    <div className="flex flex-col gap-4">
      <EditorSection
        title="Embed"
        description="Paste this into your site’s HTML, before </body>. Saved changes reach the widget the next time the page loads."
        actions={
          <Button variant="secondary" size="sm" onClick={() => void handleCopy()}>
            <CopyIcon />
            Copy code
          </Button>
        }
      >
        <pre className="overflow-x-auto rounded-lg bg-subtle p-3 font-mono text-xs whitespace-pre-wrap break-all text-fg">
          <code data-testid="widget-snippet">{snippet}</code>
        </pre>
        {draft.platform_settings.auth.enable_auth && (
          <p className="text-sm text-warning">
            The agent asks for authentication (Security tab), so the widget cannot start a conversation on its
            own: switch it off for a public widget.
          </p>
        )}
      </EditorSection>
      <EditorSection title="Layout">
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Variant"
            value={widget.variant}
            options={WIDGET_VARIANTS.map((v) => ({ value: v, label: VARIANT_LABELS[v] ?? v }))}
            onChange={(event) => set({ variant: event.target.value as Widget['variant'] })}
            error={at('variant')}
          />
          <SelectField
            label="Placement"
            value={widget.placement}
            options={WIDGET_PLACEMENTS.map((p) => ({ value: p, label: PLACEMENT_LABELS[p] ?? p }))}
            onChange={(event) => set({ placement: event.target.value as Widget['placement'] })}
            error={at('placement')}
          />
        </div>
      </EditorSection>
      <EditorSection title="Colours">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {COLORS.map(({ key, label }) => (
            <ColorField
              key={key}
              label={label}
              value={widget[key]}
              onChange={(value) => set({ [key]: value })}
              error={at(key)}
            />
          ))}
        </div>
      </EditorSection>
      <EditorSection title="Texts" description="Leave a text empty to use the widget’s own.">
        <div className="grid gap-4 sm:grid-cols-2">
          {TEXTS.map(({ key, label, placeholder }) => (
            <TextField
              key={key}
              label={label}
              placeholder={placeholder}
              maxLength={200}
              value={widget[key] ?? ''}
              onChange={(event) => set({ [key]: event.target.value === '' ? null : event.target.value })}
              error={at(key)}
            />
          ))}
        </div>
      </EditorSection>
      <EditorSection title="Features">
        {FLAGS.map(({ key, label, description }) => (
          <Switch
            key={key}
            label={label}
            description={description}
            checked={widget[key]}
            onCheckedChange={(on) => set({ [key]: on })}
          />
        ))}
      </EditorSection>
    </div>
  );
}
