import {
  AGENT_CONFIG_DEFAULTS,
  AGENT_PLATFORM_DEFAULTS,
  type AgentResponse,
  type AgentSystemTool,
  type ResolvedAgentPlatformSettings,
  type ResolvedConversationalConfig,
  UpdateAgentRequest,
} from '@parla/contracts';
import type { z } from 'zod';

/*
 * The agent editor's rules (issue 28 item 7): the draft kept while editing, the PATCH of what changed,
 * which tab a field lives on, the field errors of a refusal (ours or the server's 422), the overrides a
 * client may send, the built-in tools, and the widget's embed snippet.
 */

/** What the editor changes: the agent's name and its two resolved configurations. */
export interface AgentDraft {
  name: string;
  conversation_config: ResolvedConversationalConfig;
  platform_settings: ResolvedAgentPlatformSettings;
}

/** The draft of a loaded agent. */
export function draftOf(agent: AgentResponse): AgentDraft {
  return {
    name: agent.name,
    conversation_config: agent.conversation_config,
    platform_settings: agent.platform_settings,
  };
}

export type AgentPatch = z.input<typeof UpdateAgentRequest>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality of JSON values (key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!sameValue(a[key], b[key])) return false;
    return true;
  }
  return Number.isNaN(a) && Number.isNaN(b);
}

/**
 * What changed from `saved` to `draft`, in the shape `mergeAgentConfig` (the server's PATCH rule) merges:
 * inside a section of named fields (a non-empty object in `shape`, the defaults) only the changed fields;
 * anything else (a value, a list, a map of names, a tool) whole. Undefined: nothing changed.
 */
export function diffSection(saved: unknown, draft: unknown, shape: unknown): unknown {
  if (isPlainObject(shape) && Object.keys(shape).length > 0 && isPlainObject(saved) && isPlainObject(draft)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(draft)) {
      const changed = diffSection(saved[key], draft[key], shape[key]);
      if (changed !== undefined) out[key] = changed;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return sameValue(saved, draft) ? undefined : draft;
}

/** The PATCH body of the editor's save: only the changed sections and fields; `{}` when nothing changed. */
export function agentPatch(saved: AgentDraft, draft: AgentDraft): AgentPatch {
  const patch: AgentPatch = {};
  if (draft.name !== saved.name) patch.name = draft.name;
  const config = diffSection(saved.conversation_config, draft.conversation_config, AGENT_CONFIG_DEFAULTS);
  if (config !== undefined) patch.conversation_config = config as AgentPatch['conversation_config'];
  const platform = diffSection(saved.platform_settings, draft.platform_settings, AGENT_PLATFORM_DEFAULTS);
  if (platform !== undefined) patch.platform_settings = platform as AgentPatch['platform_settings'];
  return patch;
}

/** The editor's tabs, in order (issue 28 item 7). */
export const AGENT_EDITOR_TABS = [
  { id: 'agent', label: 'Agent' },
  { id: 'voice', label: 'Voice' },
  { id: 'knowledge-base', label: 'Knowledge base' },
  { id: 'tools', label: 'Tools' },
  { id: 'widget', label: 'Widget' },
  { id: 'security', label: 'Security' },
  { id: 'analysis', label: 'Analysis' },
] as const;
export type AgentEditorTab = (typeof AGENT_EDITOR_TABS)[number]['id'];

/** The tab named in the address (`?tab=voice`), the Agent tab otherwise. */
export function tabOf(value: string | null): AgentEditorTab {
  return AGENT_EDITOR_TABS.find((tab) => tab.id === value)?.id ?? 'agent';
}

/** Where each field lives, by the start of its dotted path; the longest match wins. */
const TAB_PREFIXES: ReadonlyArray<readonly [string, AgentEditorTab]> = [
  ['conversation_config.agent.prompt.knowledge_base', 'knowledge-base'],
  ['conversation_config.agent.prompt.tool_ids', 'tools'],
  ['conversation_config.agent.prompt.built_in_tools', 'tools'],
  ['conversation_config.tts', 'voice'],
  ['platform_settings.widget', 'widget'],
  ['platform_settings.auth', 'security'],
  ['platform_settings.overrides', 'security'],
  ['platform_settings.privacy', 'security'],
  ['platform_settings.evaluation', 'analysis'],
  ['platform_settings.data_collection', 'analysis'],
];

/** The tab that shows the field at `path` (a dotted path of the request body); Agent for the rest. */
export function tabOfField(path: string): AgentEditorTab {
  let best: readonly [string, AgentEditorTab] | undefined;
  for (const entry of TAB_PREFIXES) {
    const [prefix] = entry;
    if ((path === prefix || path.startsWith(`${prefix}.`)) && (!best || prefix.length > best[0].length))
      best = entry;
  }
  return best?.[1] ?? 'agent';
}

/** The tabs a patch touches (marked "changed" in the tab strip). */
export function changedTabs(patch: AgentPatch): Set<AgentEditorTab> {
  const tabs = new Set<AgentEditorTab>();
  const walk = (value: unknown, path: string) => {
    const tab = tabOfField(path);
    // A section that holds fields of several tabs is walked down; a leaf (or a one-tab section) is its tab.
    const mixed = TAB_PREFIXES.some(([prefix]) => prefix.startsWith(`${path}.`));
    if (isPlainObject(value) && (mixed || path === '')) {
      for (const [key, inner] of Object.entries(value)) walk(inner, path ? `${path}.${key}` : key);
    } else tabs.add(tab);
  };
  walk(patch, '');
  return tabs;
}

/** Field errors by dotted path of the request body ("conversation_config.agent.prompt.temperature"). */
export type FieldErrors = Readonly<Record<string, string>>;

/** The errors of the contract's check of a patch, by field; empty when it passes. */
export function checkAgentPatch(patch: AgentPatch): FieldErrors {
  const result = UpdateAgentRequest.safeParse(patch);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    errors[path] ??= issue.message;
  }
  return errors;
}

/**
 * The field errors of a refused save: the 422's `detail.errors[]` whose `loc` starts with `body`, keyed by
 * the rest of the path. Empty when the refusal is about no field (shown as a message instead).
 */
export function readAgentFieldErrors(data: unknown): FieldErrors {
  if (!isPlainObject(data) || !isPlainObject(data.detail) || !Array.isArray(data.detail.errors)) return {};
  const errors: Record<string, string> = {};
  for (const issue of data.detail.errors) {
    if (!isPlainObject(issue) || !Array.isArray(issue.loc) || issue.loc[0] !== 'body') continue;
    if (typeof issue.msg !== 'string' || issue.msg.trim() === '') continue;
    errors[issue.loc.slice(1).map(String).join('.')] ??= issue.msg;
  }
  return errors;
}

/** The first error at `path` or under it (a list's items), for the field that shows `path`. */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  if (errors[path]) return errors[path];
  const key = Object.keys(errors).find((k) => k.startsWith(`${path}.`));
  return key ? errors[key] : undefined;
}

/** The tabs that hold at least one error. */
export function tabsWithErrors(errors: FieldErrors): Set<AgentEditorTab> {
  return new Set(Object.keys(errors).map(tabOfField));
}

// ---------------------------------------------------------------------------------------------------------
// Overrides: which fields a client may send in `conversation_initiation_client_data`

type Overrides = ResolvedAgentPlatformSettings['overrides'];

/** The overridable fields, each a path under `conversation_config_override`, with a plain label. */
export const OVERRIDE_FIELDS: ReadonlyArray<{ path: readonly string[]; label: string }> = [
  { path: ['agent', 'first_message'], label: 'First message' },
  { path: ['agent', 'language'], label: 'Language' },
  { path: ['agent', 'prompt', 'prompt'], label: 'System prompt' },
  { path: ['agent', 'prompt', 'llm'], label: 'LLM' },
  { path: ['tts', 'voice_id'], label: 'Voice' },
  { path: ['tts', 'stability'], label: 'Stability' },
  { path: ['tts', 'similarity_boost'], label: 'Similarity' },
  { path: ['tts', 'speed'], label: 'Speed' },
  { path: ['asr', 'keywords'], label: 'Transcription keywords' },
  { path: ['conversation', 'text_only'], label: 'Text only' },
  { path: ['conversation', 'client_events'], label: 'Client events' },
];

/** Whether the override at `path` is allowed. */
export function overrideAllowed(overrides: Overrides, path: readonly string[]): boolean {
  let node: unknown = overrides.conversation_config_override;
  for (const key of path) node = isPlainObject(node) ? node[key] : undefined;
  return node === true;
}

/** The overrides with the one at `path` set to `allowed`, every other kept. */
export function withOverride(overrides: Overrides, path: readonly string[], allowed: boolean): Overrides {
  const set = (node: unknown, rest: readonly string[]): unknown => {
    const [head, ...tail] = rest;
    if (head === undefined) return allowed;
    const base = isPlainObject(node) ? node : {};
    return { ...base, [head]: set(base[head], tail) };
  };
  return {
    ...overrides,
    conversation_config_override: set(
      overrides.conversation_config_override,
      path,
    ) as Overrides['conversation_config_override'],
  };
}

// ---------------------------------------------------------------------------------------------------------
// Built-in (system) tools

/** The system tools Parla runs, with what each lets the agent do. */
export const SYSTEM_TOOL_CHOICES: ReadonlyArray<{ id: AgentSystemTool; label: string; description: string }> =
  [
    {
      id: 'end_call',
      label: 'End call',
      description: 'The agent may hang up when the conversation is over.',
    },
    {
      id: 'language_detection',
      label: 'Language detection',
      description: 'The agent switches language when the caller speaks another one.',
    },
    {
      id: 'skip_turn',
      label: 'Skip turn',
      description: 'The agent may stay silent when the caller asks it to wait.',
    },
    {
      id: 'transfer_to_agent',
      label: 'Transfer to agent',
      description: 'The agent may hand the conversation over to another of your agents.',
    },
  ];

/** A system tool as the resolved config holds it. */
export type ResolvedSystemTool = NonNullable<
  ResolvedConversationalConfig['agent']['prompt']['built_in_tools']['end_call']
>;

/** A system tool switched on with its defaults (its name is its kind, as the server requires). */
export function systemToolOf(kind: AgentSystemTool): ResolvedSystemTool {
  return {
    type: 'system',
    name: kind,
    description: '',
    response_timeout_secs: 20,
    disable_interruptions: false,
    force_pre_tool_speech: false,
    params:
      kind === 'transfer_to_agent'
        ? { system_tool_type: 'transfer_to_agent', transfers: [] }
        : { system_tool_type: kind },
  };
}

export type AgentTransfer = {
  agent_id: string;
  condition: string;
  delay_ms: number;
  transfer_message: string | null;
  enable_transferred_agent_first_message: boolean;
};

/** The transfers of the agent's `transfer_to_agent` tool (none while it is off). */
export function transfersOf(draft: AgentDraft): AgentTransfer[] {
  const params = draft.conversation_config.agent.prompt.built_in_tools.transfer_to_agent?.params;
  return params?.system_tool_type === 'transfer_to_agent' ? params.transfers : [];
}

/** The draft with the `transfer_to_agent` tool's transfers replaced (the tool must be on). */
export function withTransfers(draft: AgentDraft, transfers: AgentTransfer[]): AgentDraft {
  const builtIn = draft.conversation_config.agent.prompt.built_in_tools;
  const tool = builtIn.transfer_to_agent;
  if (!tool) return draft;
  return withPrompt(draft, {
    built_in_tools: {
      ...builtIn,
      transfer_to_agent: { ...tool, params: { system_tool_type: 'transfer_to_agent', transfers } },
    },
  });
}

/** A new transfer: to `agentId`, when the condition (for the LLM) holds. */
export function newTransfer(agentId: string): AgentTransfer {
  return {
    agent_id: agentId,
    condition: '',
    delay_ms: 0,
    transfer_message: null,
    enable_transferred_agent_first_message: false,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The widget

/** The HTML a site pastes to show the agent's call button (issue 28 item 7), served by this server. */
export function widgetSnippet(agentId: string, origin: string): string {
  const base = origin.replace(/\/+$/, '');
  return `<parla-convai agent-id="${agentId}"></parla-convai><script src="${base}/convai-widget.js" async></script>`;
}

// ---------------------------------------------------------------------------------------------------------
// Editing the draft, one section at a time

type Config = ResolvedConversationalConfig;
type Platform = ResolvedAgentPlatformSettings;

/** The draft with fields of `conversation_config.agent` replaced. */
export function withAgent(draft: AgentDraft, patch: Partial<Config['agent']>): AgentDraft {
  const config = draft.conversation_config;
  return { ...draft, conversation_config: { ...config, agent: { ...config.agent, ...patch } } };
}

/** The draft with fields of `conversation_config.agent.prompt` replaced. */
export function withPrompt(draft: AgentDraft, patch: Partial<Config['agent']['prompt']>): AgentDraft {
  return withAgent(draft, { prompt: { ...draft.conversation_config.agent.prompt, ...patch } });
}

/** The draft with fields of `conversation_config.turn` replaced. */
export function withTurn(draft: AgentDraft, patch: Partial<Config['turn']>): AgentDraft {
  const config = draft.conversation_config;
  return { ...draft, conversation_config: { ...config, turn: { ...config.turn, ...patch } } };
}

/** The draft with fields of `conversation_config.conversation` replaced. */
export function withConversation(draft: AgentDraft, patch: Partial<Config['conversation']>): AgentDraft {
  const config = draft.conversation_config;
  return { ...draft, conversation_config: { ...config, conversation: { ...config.conversation, ...patch } } };
}

/** The draft with fields of `conversation_config.tts` replaced. */
export function withTts(draft: AgentDraft, patch: Partial<Config['tts']>): AgentDraft {
  const config = draft.conversation_config;
  return { ...draft, conversation_config: { ...config, tts: { ...config.tts, ...patch } } };
}

/** The draft with fields of one `platform_settings` section replaced (a map or list section: whole). */
export function withPlatform<K extends keyof Platform>(
  draft: AgentDraft,
  key: K,
  patch: Platform[K] extends readonly unknown[] ? Platform[K] : Partial<Platform[K]>,
): AgentDraft {
  const current = draft.platform_settings[key];
  const next =
    isPlainObject(current) && isPlainObject(patch) && key !== 'data_collection'
      ? { ...(current as object), ...(patch as object) }
      : patch;
  return { ...draft, platform_settings: { ...draft.platform_settings, [key]: next } };
}
