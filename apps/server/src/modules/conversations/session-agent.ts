import type {
  ConversationAudioFormat,
  ConversationInitiationClientData,
  ResolvedAgentPlatformSettings,
} from '@parla/contracts';
import type { AnalysisAsk } from './post-call-analysis';

/*
 * What a conversation needs of its agent (issue 28 item 2), read once when the socket opens: the agents
 * module's stored config resolved to the values the turn loop uses, the client's overrides applied where
 * the agent allows them, and dynamic variables substituted.
 */

/** A tool the agent may call, as the language model is told of it. */
export interface SessionTool {
  name: string;
  description: string;
  /** JSON schema of its parameters (an object schema). */
  parameters: Record<string, unknown>;
  type: 'webhook' | 'client' | 'system' | 'mcp';
  /** Webhook tools: where and how to call, headers with secrets already put in. */
  webhook?: {
    url: string;
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    headers: Record<string, string>;
    /** Parameter names that go into the path (`{name}` in the URL) and the query; the rest is the body. */
    pathParams: string[];
    queryParams: string[];
    timeoutMs: number;
  };
  /** MCP tools: runs the call on the tool's MCP server (its time limit and address checks inside). */
  mcp?: {
    serverId: string;
    call(args: Record<string, unknown>, signal: AbortSignal): Promise<{ text: string; isError: boolean }>;
  };
  /** Client tools: whether the agent waits for the result. */
  expectsResponse?: boolean;
  /** Client tools: how long the result is awaited. */
  timeoutMs?: number;
}

export interface SessionAgent {
  agentId: string;
  name: string;
  /** The workspace that owns the agent: billed for its conversations (the public API bills the creator). */
  workspaceId: string;
  /** Who made the agent: its voice is resolved as theirs in a public conversation (no caller). */
  ownerUserId: string;
  prompt: string;
  /** The model the agent asks for (passed to an OpenAI-compatible server; the embedded one has one). */
  llm: string;
  temperature: number;
  maxTokens: number;
  firstMessage: string;
  language: string;
  voiceId: string;
  ttsModelId: string;
  stability: number;
  similarityBoost: number;
  speed: number;
  outputFormat: ConversationAudioFormat;
  inputFormat: ConversationAudioFormat;
  /** Seconds of the user's silence after which the agent speaks again (turn.turn_timeout; -1: never). */
  turnTimeoutSecs: number;
  /** Seconds of the user's silence after which the call ends (turn.silence_end_call_timeout; -1: never). */
  silenceEndCallSecs: number;
  /** How soon a pause ends the user's turn (turn.turn_eagerness). */
  turnEagerness: 'patient' | 'normal' | 'eager';
  maxDurationSecs: number;
  textOnly: boolean;
  knowledgeBaseIds: string[];
  tools: SessionTool[];
  /** platform_settings.auth: `enable_auth` (a signed URL or a key, else public) and the origin allowlist. */
  auth: ResolvedAgentPlatformSettings['auth'];
  /** Which client overrides the agent accepts (platform_settings.overrides). */
  overrides: {
    prompt: boolean;
    firstMessage: boolean;
    language: boolean;
    voiceId: boolean;
    textOnly: boolean;
    stability: boolean;
    speed: boolean;
    similarityBoost: boolean;
  };
  recordVoice: boolean;
  /** Days conversations are kept; -1 for ever. */
  retentionDays: number;
  /**
   * platform_settings.overrides.enable_conversation_initiation_client_data_from_webhook: the workspace's
   * initiation webhook (`/v1/convai/settings`) is asked for dynamic variables and overrides at the start.
   */
  initiationFromWebhook?: boolean;
  dynamicVariables: Record<string, string | number | boolean>;
  /** What post-call analysis asks of the model (platform_settings.evaluation and data_collection). */
  analysis: AnalysisAsk;
}

/** `{{name}}` in prompts and first messages, from the client's and the agent's dynamic variables. */
export function substituteVariables(
  text: string,
  variables: Record<string, string | number | boolean>,
): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) =>
    name in variables ? String(variables[name]) : whole,
  );
}

/**
 * The agent for this conversation: the client's overrides where the agent allows each one (an override
 * it does not allow is refused by name, as the public API refuses it), then dynamic variables.
 */
export function applyClientData(
  agent: SessionAgent,
  data: ConversationInitiationClientData | undefined,
): SessionAgent {
  const override = data?.conversation_config_override ?? undefined;
  const refuse = (what: string) => {
    throw new OverrideRefused(`Override for field '${what}' is not allowed by config.`);
  };
  let next = { ...agent };
  const prompt = override?.agent?.prompt?.prompt;
  if (prompt !== undefined) {
    if (!agent.overrides.prompt) refuse('prompt');
    next.prompt = prompt;
  }
  const firstMessage = override?.agent?.first_message;
  if (firstMessage !== undefined) {
    if (!agent.overrides.firstMessage) refuse('first_message');
    next.firstMessage = firstMessage;
  }
  const language = override?.agent?.language;
  if (language !== undefined) {
    if (!agent.overrides.language) refuse('language');
    next.language = language;
  }
  const voiceId = override?.tts?.voice_id;
  if (voiceId !== undefined) {
    if (!agent.overrides.voiceId) refuse('voice_id');
    next.voiceId = voiceId;
  }
  const textOnly = override?.conversation?.text_only;
  if (textOnly !== undefined) {
    if (!agent.overrides.textOnly) refuse('text_only');
    next.textOnly = textOnly;
  }
  const tts = override?.tts;
  if (tts?.speed !== undefined) {
    if (!agent.overrides.speed) refuse('speed');
    next.speed = tts.speed;
  }
  if (tts?.stability !== undefined) {
    if (!agent.overrides.stability) refuse('stability');
    next.stability = tts.stability;
  }
  if (tts?.similarity_boost !== undefined) {
    if (!agent.overrides.similarityBoost) refuse('similarity_boost');
    next.similarityBoost = tts.similarity_boost;
  }
  const variables = { ...agent.dynamicVariables, ...(data?.dynamic_variables ?? {}) };
  next = {
    ...next,
    dynamicVariables: variables,
    prompt: substituteVariables(next.prompt, variables),
    firstMessage: substituteVariables(next.firstMessage, variables),
  };
  return next;
}

export class OverrideRefused extends Error {
  override name = 'OverrideRefused';
}
