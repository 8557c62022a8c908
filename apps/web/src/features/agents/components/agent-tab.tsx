import { AGENT_LANGUAGES } from '@parla/contracts';
import { EditorSection, NumberField, SelectField, TextAreaField } from '../../../ui/editor-fields';
import { TextField } from '../../../ui/field';
import { Switch } from '../../../ui/switch';
import { languageName } from '../../voices';
import { errorAt, withAgent, withConversation, withPrompt, withTurn } from '../agent-editor-rules';
import { useLlmStatus } from '../api/get-llm-status';
import type { EditorTabProps } from './editor-tab-props';

/** A language code as people read it: "French", "Portuguese (pt-br)". */
function languageLabel(code: string): string {
  const name = languageName(code) ?? code;
  return code.includes('-') ? `${name} (${code})` : name;
}

const LANGUAGE_OPTIONS = AGENT_LANGUAGES.map((code) => ({ value: code, label: languageLabel(code) })).sort(
  (a, b) => a.label.localeCompare(b.label),
);

/**
 * What answers on this server, said plainly: the embedded model and what it is good for, an
 * OpenAI-compatible server, or knowledge-base mode when there is no model at all.
 */
function LlmNote() {
  const status = useLlmStatus();
  const s = status.data;
  let text =
    'The built-in model is small: fine for short answers from your knowledge base and simple tool calls; for open conversation point the server at a bigger model (LLM_OPENAI_URL).';
  if (s?.mode === 'knowledge_base')
    text =
      `No language model is set up on this server, so agents answer each turn with the best-matching passage of their knowledge base, and tools that need a model are not called. ${s.note ?? ''}`.trim();
  else if (s?.provider === 'openai')
    text = `Agents answer through the OpenAI-compatible server this Parla is set up with (model ${s.model ?? 'unnamed'}).`;
  else if (s?.provider === 'embedded')
    text = s.note ?? `Agents answer with the built-in model ${s.model ?? ''}.`;
  return (
    <p role="note" className="rounded-lg bg-subtle px-3 py-2 text-sm text-fg">
      {text}
    </p>
  );
}

const EAGERNESS_OPTIONS = [
  { value: 'eager', label: 'Eager: answers after a short pause (0.3 s)' },
  { value: 'normal', label: 'Normal: answers after 0.4 s of silence' },
  { value: 'patient', label: 'Patient: waits for 0.8 s of silence' },
];

/** The Agent tab: name, greeting, system prompt, language, the LLM with its temperature, and turn taking. */
export function AgentTab({ draft, edit, errors }: EditorTabProps) {
  const agent = draft.conversation_config.agent;
  const prompt = agent.prompt;
  const { turn, conversation } = draft.conversation_config;
  return (
    <div className="flex flex-col gap-4">
      <EditorSection title="Agent">
        <TextField
          label="Name"
          value={draft.name}
          maxLength={200}
          onChange={(event) => {
            const name = event.target.value;
            edit((d) => ({ ...d, name }));
          }}
          error={errorAt(errors, 'name')}
        />
        <TextAreaField
          label="First message"
          rows={2}
          value={agent.first_message}
          onChange={(event) => {
            const first_message = event.target.value;
            edit((d) => withAgent(d, { first_message }));
          }}
          description="What the agent says when the call opens. Leave it empty and the agent waits for the caller to speak first."
          error={errorAt(errors, 'conversation_config.agent.first_message')}
        />
        <TextAreaField
          label="System prompt"
          rows={10}
          value={prompt.prompt}
          onChange={(event) => {
            const text = event.target.value;
            edit((d) => withPrompt(d, { prompt: text }));
          }}
          description="Who the agent is, what it knows and how it should answer. Answers are spoken, so ask for short ones."
          error={errorAt(errors, 'conversation_config.agent.prompt.prompt')}
        />
        <SelectField
          label="Language"
          className="max-w-sm"
          value={agent.language}
          options={LANGUAGE_OPTIONS}
          onChange={(event) => {
            const language = event.target.value as typeof agent.language;
            edit((d) => withAgent(d, { language }));
          }}
          description="The language the agent hears and speaks by default."
          error={errorAt(errors, 'conversation_config.agent.language')}
        />
      </EditorSection>
      <EditorSection
        title="LLM"
        description="The model that writes the agent’s answers, through the LLM provider this server is set up with."
      >
        <LlmNote />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Model name"
            value={prompt.llm}
            maxLength={100}
            onChange={(event) => {
              const llm = event.target.value;
              edit((d) => withPrompt(d, { llm }));
            }}
            description="Passed to the server’s LLM (for example a model name Ollama or vLLM serves)."
            error={errorAt(errors, 'conversation_config.agent.prompt.llm')}
          />
          <NumberField
            label="Temperature"
            value={prompt.temperature}
            onValueChange={(temperature) => edit((d) => withPrompt(d, { temperature }))}
            description="0 to 1: low keeps answers steady and close to the prompt, high makes them more varied."
            error={errorAt(errors, 'conversation_config.agent.prompt.temperature')}
          />
        </div>
      </EditorSection>
      <EditorSection
        title="Conversation"
        description="How the agent takes turns, what it does when the caller goes quiet, and how long a call may last."
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Turn eagerness"
            value={turn.turn_eagerness}
            options={EAGERNESS_OPTIONS}
            onChange={(event) => {
              const turn_eagerness = event.target.value as typeof turn.turn_eagerness;
              edit((d) => withTurn(d, { turn_eagerness }));
            }}
            description="How soon a pause ends the caller’s turn. Eager answers sooner but may cut a slow speaker off."
            error={errorAt(errors, 'conversation_config.turn.turn_eagerness')}
          />
          <NumberField
            label="Check in after silence (seconds)"
            value={turn.turn_timeout}
            onValueChange={(turn_timeout) => edit((d) => withTurn(d, { turn_timeout }))}
            description="1 to 30: the agent asks whether the caller is still there once they have been quiet this long. -1: never."
            error={errorAt(errors, 'conversation_config.turn.turn_timeout')}
          />
          <NumberField
            label="End the call after silence (seconds)"
            value={turn.silence_end_call_timeout}
            onValueChange={(silence_end_call_timeout) =>
              edit((d) => withTurn(d, { silence_end_call_timeout }))
            }
            description="Up to 600: the call ends when the caller has been quiet this long. -1: never."
            error={errorAt(errors, 'conversation_config.turn.silence_end_call_timeout')}
          />
          <NumberField
            label="Longest call (seconds)"
            value={conversation.max_duration_seconds}
            onValueChange={(max_duration_seconds) =>
              edit((d) => withConversation(d, { max_duration_seconds }))
            }
            description="The call ends when it reaches this length."
            error={errorAt(errors, 'conversation_config.conversation.max_duration_seconds')}
          />
        </div>
        <Switch
          label="Text only"
          checked={conversation.text_only}
          onCheckedChange={(text_only) => edit((d) => withConversation(d, { text_only }))}
          description="The agent reads and writes messages instead of listening and speaking."
        />
      </EditorSection>
    </div>
  );
}
