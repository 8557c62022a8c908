import { z } from 'zod';
import { defineRoute } from './routes';

/*
 * Conversational agents (issue 28 item 1; history/voices §7 "agents CRUD, widget, link"). The shapes follow
 * `conversationalAi.agents` of `@elevenlabs/elevenlabs-js` (`ConversationalConfig`, `AgentConfig`,
 * `PromptAgentApiModelInput`, `TtsConversationalConfigInput`, `AsrConversationalConfig`, `TurnConfig`,
 * `ConversationConfigInput`, `AgentPlatformSettingsRequestModel`, `GetAgentResponseModel`, …), snake_case
 * on the wire. Request schemas have every field optional and fill nothing: a create stores what was given
 * over AGENT_CONFIG_DEFAULTS, an update deep-merges what was given over what is stored (`mergeAgentConfig`),
 * and reads answer the resolved config (`resolveAgentConfig`). Fields the SDK knows and Parla does not use
 * (workflows, branches, guardrails…) are accepted and dropped (zod strips unknown keys), never a 500.
 */

// ---------------------------------------------------------------------------------------------------------
// Enumerations (the SDK's, as far as Parla serves them)

/** `conversation_initiation_metadata`'s formats (`AsrInputFormat`, `TtsOutputFormat`; el-facts §3). */
export const AGENT_AUDIO_FORMATS = [
  'pcm_8000',
  'pcm_16000',
  'pcm_22050',
  'pcm_24000',
  'pcm_44100',
  'pcm_48000',
  'ulaw_8000',
] as const;
export type AgentAudioFormat = (typeof AGENT_AUDIO_FORMATS)[number];

/** The agent languages of the protocol (`ConversationConfigOverrideAgentLanguage`, el-facts §2: 72 codes). */
export const AGENT_LANGUAGES = [
  'en',
  'ja',
  'zh',
  'de',
  'hi',
  'fr',
  'ko',
  'pt',
  'pt-br',
  'it',
  'es',
  'id',
  'nl',
  'tr',
  'pl',
  'sv',
  'bg',
  'ro',
  'ar',
  'cs',
  'el',
  'fi',
  'ms',
  'da',
  'ta',
  'uk',
  'ru',
  'hu',
  'hr',
  'sk',
  'no',
  'vi',
  'tl',
  'af',
  'hy',
  'as',
  'az',
  'be',
  'bn',
  'bs',
  'ca',
  'et',
  'gl',
  'ka',
  'gu',
  'ha',
  'he',
  'is',
  'ga',
  'jv',
  'kn',
  'kk',
  'ky',
  'lv',
  'lt',
  'lb',
  'mk',
  'ml',
  'mr',
  'ne',
  'ps',
  'fa',
  'pa',
  'sr',
  'sd',
  'sl',
  'so',
  'sw',
  'te',
  'th',
  'ur',
  'cy',
] as const;
export type AgentLanguage = (typeof AGENT_LANGUAGES)[number];

/** What the server may send a client (`ClientEvent`); `conversation.client_events` picks among them. */
export const AGENT_CLIENT_EVENTS = [
  'conversation_initiation_metadata',
  'asr_initiation_metadata',
  'ping',
  'audio',
  'interruption',
  'user_transcript',
  'tentative_user_transcript',
  'agent_response',
  'agent_response_correction',
  'client_tool_call',
  'agent_tool_request',
  'agent_tool_response',
  'agent_response_metadata',
  'vad_score',
  'agent_chat_response_part',
  'client_error',
  'agent_response_complete',
  'internal_turn_probability',
  'internal_tentative_agent_response',
  'mcp_tool_call',
  'mcp_connection_status',
  'agent_tool_response_full_payload',
  'guardrail_triggered',
  'dtmf_request',
  'context_usage',
] as const;
export type AgentClientEvent = (typeof AGENT_CLIENT_EVENTS)[number];

/**
 * The system tools an agent's prompt can switch on (`BuiltInToolsInput`): the four Parla runs (issue 28
 * item 4). The SDK's others (`transfer_to_number`, `play_keypad_touch_tone`, `voicemail_detection`) are
 * telephony, which Parla does not serve: set to a tool they are refused with a message, null is accepted.
 */
export const AGENT_SYSTEM_TOOLS = [
  'end_call',
  'language_detection',
  'transfer_to_agent',
  'skip_turn',
] as const;
export type AgentSystemTool = (typeof AGENT_SYSTEM_TOOLS)[number];
export const AGENT_TELEPHONY_SYSTEM_TOOLS = [
  'transfer_to_number',
  'play_keypad_touch_tone',
  'voicemail_detection',
] as const;

export const AGENT_TURN_MODES = ['silence', 'turn'] as const;
export const AGENT_TURN_EAGERNESS = ['patient', 'normal', 'eager'] as const;
export const KNOWLEDGE_BASE_DOCUMENT_TYPES = ['file', 'url', 'text', 'folder'] as const;
export const KNOWLEDGE_BASE_USAGE_MODES = ['prompt', 'auto'] as const;
export const WIDGET_VARIANTS = ['tiny', 'compact', 'full', 'expandable'] as const;
export const WIDGET_PLACEMENTS = [
  'top-left',
  'top',
  'top-right',
  'bottom-left',
  'bottom',
  'bottom-right',
] as const;
export const WIDGET_EXPANDABLE = ['never', 'mobile', 'desktop', 'always'] as const;
export const WIDGET_FEEDBACK_MODES = ['none', 'during', 'end'] as const;

/** The most an agent conversation may last (`conversation.max_duration_seconds`): two hours. */
export const AGENT_MAX_DURATION_SECONDS = 7200;
/** Longest system prompt accepted (characters). */
export const AGENT_PROMPT_MAX_CHARS = 100_000;
/** At most this many tools, knowledge-base documents, allowed origins per agent. */
export const AGENT_MAX_TOOLS = 64;
/** The most MCP servers an agent uses (`mcp_server_ids`). */
export const AGENT_MAX_MCP_SERVERS = 10;
export const AGENT_MAX_KNOWLEDGE_BASE = 100;
export const AGENT_MAX_ALLOWLIST = 100;

// ---------------------------------------------------------------------------------------------------------
// Building blocks

const text = (max: number, what: string) =>
  z.string().max(max, `${what} is at most ${max.toLocaleString('en')} characters.`);
const unit = (what: string) =>
  z.number().min(0, `${what} is between 0 and 1.`).max(1, `${what} is between 0 and 1.`);
const id = z.string().trim().min(1, 'Give an id.').max(128, 'An id is at most 128 characters.');
/** The LLM an agent asks for (`Llm`): the operator's LLM provider decides what answers (issue 28). */
const LlmName = z
  .string()
  .trim()
  .min(1, 'Name the LLM.')
  .max(100, 'An LLM name is at most 100 characters.')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@/-]*$/, 'An LLM name is letters, digits and . _ : @ / - characters.');
const HexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'A colour is written #rgb or #rrggbb.');

/** A system tool's configuration (`SystemToolConfigInput`) as the prompt's `built_in_tools` holds it. */
export const AgentTransfer = z.object({
  agent_id: id,
  condition: text(1000, 'A transfer condition'),
  delay_ms: z.number().int().min(0).max(60_000).optional(),
  transfer_message: text(1000, 'A transfer message').nullable().optional(),
  enable_transferred_agent_first_message: z.boolean().optional(),
});
export const SystemToolParams = z.discriminatedUnion('system_tool_type', [
  z.object({ system_tool_type: z.literal('end_call') }),
  z.object({ system_tool_type: z.literal('language_detection') }),
  z.object({ system_tool_type: z.literal('skip_turn') }),
  z.object({
    system_tool_type: z.literal('transfer_to_agent'),
    transfers: z.array(AgentTransfer).max(20, 'At most 20 transfers.').default([]),
  }),
]);
export const SystemToolConfig = z.object({
  type: z.literal('system').default('system'),
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'A tool name is 1 to 64 letters, digits, _ and - characters.'),
  description: text(2000, 'A tool description').default(''),
  response_timeout_secs: z.number().int().min(1).max(120).default(20),
  disable_interruptions: z.boolean().default(false),
  force_pre_tool_speech: z.boolean().default(false),
  params: SystemToolParams,
});
export type SystemToolConfig = z.infer<typeof SystemToolConfig>;

const telephonyTool = z
  .unknown()
  .nullable()
  .optional()
  .refine((v) => v === null || v === undefined, 'Telephony tools are not served by Parla; leave it null.');

export const BuiltInTools = z.object({
  end_call: SystemToolConfig.nullable().optional(),
  language_detection: SystemToolConfig.nullable().optional(),
  transfer_to_agent: SystemToolConfig.nullable().optional(),
  skip_turn: SystemToolConfig.nullable().optional(),
  transfer_to_number: telephonyTool,
  play_keypad_touch_tone: telephonyTool,
  voicemail_detection: telephonyTool,
});

/** A knowledge-base document attached to an agent (`KnowledgeBaseLocator`). */
export const KnowledgeBaseLocator = z.object({
  type: z.enum(KNOWLEDGE_BASE_DOCUMENT_TYPES),
  name: text(500, 'A document name'),
  id,
  usage_mode: z.enum(KNOWLEDGE_BASE_USAGE_MODES).default('auto'),
});
export type KnowledgeBaseLocator = z.infer<typeof KnowledgeBaseLocator>;

const DynamicVariableValue = z.union([z.string().max(10_000), z.number(), z.boolean()]);
const DynamicVariableName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
    'A dynamic variable name is a letter or _ then letters, digits and _.',
  );

// ---------------------------------------------------------------------------------------------------------
// conversation_config, as requests send it (every field optional)

export const PromptAgentInput = z.object({
  prompt: text(AGENT_PROMPT_MAX_CHARS, 'The prompt').optional(),
  llm: LlmName.optional(),
  temperature: z
    .number()
    .min(0, 'The temperature is between 0 and 1.')
    .max(1, 'The temperature is between 0 and 1.')
    .optional(),
  /** -1: no limit; otherwise the most tokens the LLM may answer with. */
  max_tokens: z
    .number()
    .int()
    .refine((n) => n === -1 || (n >= 1 && n <= 32_768), 'max_tokens is -1 (no limit) or 1 to 32,768.')
    .optional(),
  tool_ids: z
    .array(id)
    .max(AGENT_MAX_TOOLS, `At most ${AGENT_MAX_TOOLS} tools.`)
    .refine((ids) => new Set(ids).size === ids.length, 'Name each tool once.')
    .optional(),
  built_in_tools: BuiltInTools.optional(),
  /** The workspace's MCP servers whose approved tools the agent may call (`/v1/convai/mcp-servers`). */
  mcp_server_ids: z
    .array(id)
    .max(AGENT_MAX_MCP_SERVERS, `At most ${AGENT_MAX_MCP_SERVERS} MCP servers.`)
    .refine((ids) => new Set(ids).size === ids.length, 'Name each MCP server once.')
    .optional(),
  /** The public API's hosted ("native") MCP servers: this server hosts none. */
  native_mcp_server_ids: z
    .array(id)
    .max(0, 'This server hosts no native MCP servers; add yours with POST /v1/convai/mcp-servers.')
    .optional(),
  knowledge_base: z
    .array(KnowledgeBaseLocator)
    .max(AGENT_MAX_KNOWLEDGE_BASE, `At most ${AGENT_MAX_KNOWLEDGE_BASE} documents.`)
    .refine((docs) => new Set(docs.map((d) => d.id)).size === docs.length, 'Attach each document once.')
    .optional(),
  ignore_default_personality: z.boolean().optional(),
  timezone: z.string().max(64).nullable().optional(),
});

export const AgentConfigInput = z.object({
  /** Empty: the agent waits for the user to speak first. */
  first_message: text(10_000, 'The first message').optional(),
  language: z
    .enum(AGENT_LANGUAGES, {
      error: 'The language is one of the agent language codes (en, fr, de, pt-br, …).',
    })
    .optional(),
  dynamic_variables: z
    .object({
      dynamic_variable_placeholders: z
        .record(DynamicVariableName, DynamicVariableValue)
        .refine((r) => Object.keys(r).length <= 100, 'At most 100 dynamic variables.')
        .optional(),
    })
    .optional(),
  disable_first_message_interruptions: z.boolean().optional(),
  max_conversation_duration_message: text(1000, 'The closing message').nullable().optional(),
  prompt: PromptAgentInput.optional(),
});

export const TtsConfigInput = z.object({
  /** A text-to-speech model of `GET /v1/models` (Parla ids and the public ids they alias). */
  model_id: z.string().trim().min(1).max(100).optional(),
  /** A premade voice or one of the workspace's own. */
  voice_id: z.string().trim().min(1, 'Choose a voice.').max(100).optional(),
  agent_output_audio_format: z
    .enum(AGENT_AUDIO_FORMATS, { error: `The output format is one of ${AGENT_AUDIO_FORMATS.join(', ')}.` })
    .optional(),
  optimize_streaming_latency: z.number().int().min(0).max(4).optional(),
  stability: unit('Stability').optional(),
  similarity_boost: unit('Similarity').optional(),
  speed: z
    .number()
    .min(0.7, 'The speed is between 0.7 and 1.2.')
    .max(1.2, 'The speed is between 0.7 and 1.2.')
    .optional(),
});

export const AsrConfigInput = z.object({
  quality: z.literal('high', { error: 'The only transcription quality is high.' }).optional(),
  provider: z.enum(['elevenlabs', 'scribe_realtime']).optional(),
  user_input_audio_format: z
    .enum(AGENT_AUDIO_FORMATS, { error: `The input format is one of ${AGENT_AUDIO_FORMATS.join(', ')}.` })
    .optional(),
  keywords: z.array(z.string().trim().min(1).max(100)).max(100, 'At most 100 keywords.').optional(),
});

export const TurnConfigInput = z.object({
  /** Seconds of the user's silence before the agent speaks again (`turn_timeout`). */
  turn_timeout: z
    .number()
    .refine((n) => n === -1 || (n >= 1 && n <= 30), 'The turn timeout is -1 (off) or 1 to 30 seconds.')
    .optional(),
  /** Seconds of silence after which the call ends; -1: never. */
  silence_end_call_timeout: z
    .number()
    .refine((n) => n === -1 || (n > 0 && n <= 600), 'The silence timeout is -1 (off) or up to 600 seconds.')
    .optional(),
  /** `turn`: end of turn by the turn model; `silence`: by a pause alone. */
  mode: z.enum(AGENT_TURN_MODES).optional(),
  turn_eagerness: z.enum(AGENT_TURN_EAGERNESS).optional(),
  /** Short words ("uh-huh", "okay") that do not interrupt the agent. */
  interruption_ignore_terms: z.array(z.string().trim().min(1).max(50)).max(100).optional(),
});

export const ConversationSettingsInput = z.object({
  text_only: z.boolean().optional(),
  max_duration_seconds: z
    .number()
    .int()
    .min(1, `The longest conversation is 1 to ${AGENT_MAX_DURATION_SECONDS} seconds.`)
    .max(
      AGENT_MAX_DURATION_SECONDS,
      `The longest conversation is 1 to ${AGENT_MAX_DURATION_SECONDS} seconds.`,
    )
    .optional(),
  /** The events sent to the client; without `interruption`, the user cannot barge in. */
  client_events: z
    .array(z.enum(AGENT_CLIENT_EVENTS))
    .max(AGENT_CLIENT_EVENTS.length)
    .transform((events) => [...new Set(events)])
    .optional(),
});

export const ConversationalConfigInput = z.object({
  agent: AgentConfigInput.optional(),
  tts: TtsConfigInput.optional(),
  asr: AsrConfigInput.optional(),
  turn: TurnConfigInput.optional(),
  conversation: ConversationSettingsInput.optional(),
});
export type ConversationalConfigInput = z.input<typeof ConversationalConfigInput>;

// ---------------------------------------------------------------------------------------------------------
// platform_settings, as requests send it

export const AllowlistItem = z.object({
  hostname: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'Give a host name.')
    .max(253)
    .regex(
      /^(?:\*\.)?[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::\d{1,5})?$/,
      'An allowed origin is a host name like example.com, app.example.com:8443 or *.example.com.',
    ),
});

export const AgentAuthInput = z.object({
  /** true: conversations start only with a signed URL; false: anyone with the agent id (public). */
  enable_auth: z.boolean().optional(),
  /** The web origins allowed to open conversations (empty: any). */
  allowlist: z
    .array(AllowlistItem)
    .max(AGENT_MAX_ALLOWLIST, `At most ${AGENT_MAX_ALLOWLIST} origins.`)
    .optional(),
  /** With an allowlist: refuse connections that send no Origin header. */
  require_origin_header: z.boolean().optional(),
});

/** Which fields a client may override in `conversation_initiation_client_data` (all off by default). */
export const AgentOverridesInput = z.object({
  conversation_config_override: z
    .object({
      agent: z
        .object({
          first_message: z.boolean().optional(),
          language: z.boolean().optional(),
          prompt: z.object({ prompt: z.boolean().optional(), llm: z.boolean().optional() }).optional(),
        })
        .optional(),
      tts: z
        .object({
          voice_id: z.boolean().optional(),
          stability: z.boolean().optional(),
          speed: z.boolean().optional(),
          similarity_boost: z.boolean().optional(),
        })
        .optional(),
      asr: z.object({ keywords: z.boolean().optional() }).optional(),
      conversation: z
        .object({ text_only: z.boolean().optional(), client_events: z.boolean().optional() })
        .optional(),
    })
    .optional(),
  custom_llm_extra_body: z.boolean().optional(),
  enable_conversation_initiation_client_data_from_webhook: z.boolean().optional(),
});

const WidgetText = (what: string) => text(200, what).nullable().optional();
export const WidgetConfigInput = z.object({
  variant: z.enum(WIDGET_VARIANTS).optional(),
  placement: z.enum(WIDGET_PLACEMENTS).optional(),
  expandable: z.enum(WIDGET_EXPANDABLE).optional(),
  avatar: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('orb'), color_1: HexColor.optional(), color_2: HexColor.optional() }),
      z.object({
        type: z.literal('url'),
        custom_url: z.string().url('The avatar is a URL.').max(2048).optional(),
      }),
      z.object({
        type: z.literal('image'),
        url: z.string().url('The avatar is a URL.').max(2048).optional(),
      }),
    ])
    .optional(),
  feedback_mode: z.enum(WIDGET_FEEDBACK_MODES).optional(),
  bg_color: HexColor.optional(),
  text_color: HexColor.optional(),
  btn_color: HexColor.optional(),
  btn_text_color: HexColor.optional(),
  border_color: HexColor.optional(),
  focus_color: HexColor.optional(),
  border_radius: z.number().int().min(0).max(100).nullable().optional(),
  btn_radius: z.number().int().min(0).max(100).nullable().optional(),
  action_text: WidgetText('The action text'),
  start_call_text: WidgetText('The start call text'),
  end_call_text: WidgetText('The end call text'),
  expand_text: WidgetText('The expand text'),
  listening_text: WidgetText('The listening text'),
  speaking_text: WidgetText('The speaking text'),
  shareable_page_text: WidgetText('The shareable page text'),
  shareable_page_show_terms: z.boolean().optional(),
  terms_text: text(5000, 'The terms').nullable().optional(),
  terms_key: text(100, 'The terms key').nullable().optional(),
  show_avatar_when_collapsed: z.boolean().optional(),
  disable_banner: z.boolean().optional(),
  mic_muting_enabled: z.boolean().optional(),
  transcript_enabled: z.boolean().optional(),
  text_input_enabled: z.boolean().optional(),
  default_expanded: z.boolean().optional(),
  always_expanded: z.boolean().optional(),
  language_selector: z.boolean().optional(),
  supports_text_only: z.boolean().optional(),
});

export const AgentPrivacyInput = z.object({
  /** Keep the conversation's audio (history's audio download). */
  record_voice: z.boolean().optional(),
  /** Days a conversation is kept; -1: no limit. */
  retention_days: z
    .number()
    .int()
    .refine((n) => n === -1 || (n >= 1 && n <= 3650), 'Retention is -1 (no limit) or 1 to 3,650 days.')
    .optional(),
  delete_transcript_and_pii: z.boolean().optional(),
  delete_audio: z.boolean().optional(),
  apply_to_existing_conversations: z.boolean().optional(),
  zero_retention_mode: z.boolean().optional(),
});

/** Post-call analysis (issue 28 item 5): criteria judged and data extracted by the LLM. */
export const EvaluationCriterion = z.object({
  id: z.string().trim().min(1).max(64),
  name: text(200, 'A criterion name'),
  type: z.literal('prompt').default('prompt'),
  conversation_goal_prompt: text(2000, 'A criterion'),
  use_knowledge_base: z.boolean().default(false),
});
export const DataCollectionItem = z.object({
  type: z.enum(['boolean', 'string', 'integer', 'number']),
  description: text(2000, 'A data item description').default(''),
  enum: z.array(z.string().max(200)).max(100).nullable().optional(),
});

export const AgentPlatformSettingsInput = z.object({
  auth: AgentAuthInput.optional(),
  overrides: AgentOverridesInput.optional(),
  widget: WidgetConfigInput.optional(),
  privacy: AgentPrivacyInput.optional(),
  evaluation: z
    .object({ criteria: z.array(EvaluationCriterion).max(30, 'At most 30 criteria.').optional() })
    .optional(),
  data_collection: z
    .record(
      z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'A data item id is 1 to 64 letters, digits, _ and -.'),
      DataCollectionItem,
    )
    .refine((r) => Object.keys(r).length <= 40, 'At most 40 data items.')
    .optional(),
  archived: z.boolean().optional(),
});
export type AgentPlatformSettingsInput = z.input<typeof AgentPlatformSettingsInput>;

// ---------------------------------------------------------------------------------------------------------
// The resolved config (what GET answers and conversations run with)

/** Every field present: what remains optional in a request is filled from AGENT_CONFIG_DEFAULTS. */
export type DeepResolved<T> = T extends readonly (infer U)[]
  ? DeepResolved<U>[]
  : T extends { [key: string]: unknown }
    ? { [K in keyof T]-?: DeepResolved<Exclude<T[K], undefined>> }
    : T;

export type ResolvedConversationalConfig = DeepResolved<z.output<typeof ConversationalConfigInput>>;
export type ResolvedAgentPlatformSettings = DeepResolved<z.output<typeof AgentPlatformSettingsInput>>;

/** The default premade voice of a new agent (Sarah: spoken by the neural engine, issue 27). */
export const AGENT_DEFAULT_VOICE_ID = 'pMsXgVXv3BLzUgSXRplE';

/**
 * A new agent's configuration: the public API's documented defaults (temperature 0, max_tokens -1,
 * language en, turn_timeout 7, max_duration_seconds 600, pcm_16000 in and out, stability 0.5, similarity
 * 0.8, speed 1, record_voice true, retention -1, every override off, the auth off) with Parla's own where
 * the public value names something Parla does not have: the voice (a premade Parla voice) and the model
 * (`eleven_flash_v2_5`, which Parla speaks with its neural engine in every language; the public default
 * `eleven_flash_v2` is English-only and speaks Parla's classic English model).
 */
export const AGENT_CONFIG_DEFAULTS: ResolvedConversationalConfig = {
  agent: {
    first_message: '',
    language: 'en',
    dynamic_variables: { dynamic_variable_placeholders: {} },
    disable_first_message_interruptions: false,
    max_conversation_duration_message: null,
    prompt: {
      prompt: '',
      llm: 'gemini-2.5-flash',
      temperature: 0,
      max_tokens: -1,
      tool_ids: [],
      mcp_server_ids: [],
      native_mcp_server_ids: [],
      built_in_tools: {
        end_call: null,
        language_detection: null,
        transfer_to_agent: null,
        skip_turn: null,
        transfer_to_number: null,
        play_keypad_touch_tone: null,
        voicemail_detection: null,
      },
      knowledge_base: [],
      ignore_default_personality: false,
      timezone: null,
    },
  },
  tts: {
    model_id: 'eleven_flash_v2_5',
    voice_id: AGENT_DEFAULT_VOICE_ID,
    agent_output_audio_format: 'pcm_16000',
    optimize_streaming_latency: 3,
    stability: 0.5,
    similarity_boost: 0.8,
    speed: 1,
  },
  asr: { quality: 'high', provider: 'elevenlabs', user_input_audio_format: 'pcm_16000', keywords: [] },
  turn: {
    turn_timeout: 7,
    silence_end_call_timeout: -1,
    mode: 'turn',
    turn_eagerness: 'normal',
    interruption_ignore_terms: [],
  },
  conversation: {
    text_only: false,
    max_duration_seconds: 600,
    client_events: [
      'audio',
      'interruption',
      'user_transcript',
      'agent_response',
      'agent_response_correction',
      'client_tool_call',
      'vad_score',
    ],
  },
};

export const AGENT_PLATFORM_DEFAULTS: ResolvedAgentPlatformSettings = {
  auth: { enable_auth: false, allowlist: [], require_origin_header: false },
  overrides: {
    conversation_config_override: {
      agent: { first_message: false, language: false, prompt: { prompt: false, llm: false } },
      tts: { voice_id: false, stability: false, speed: false, similarity_boost: false },
      asr: { keywords: false },
      conversation: { text_only: false, client_events: false },
    },
    custom_llm_extra_body: false,
    enable_conversation_initiation_client_data_from_webhook: false,
  },
  widget: {
    variant: 'full',
    placement: 'bottom-right',
    expandable: 'never',
    avatar: { type: 'orb', color_1: '#2792dc', color_2: '#9ce6e6' },
    feedback_mode: 'none',
    bg_color: '#ffffff',
    text_color: '#000000',
    btn_color: '#000000',
    btn_text_color: '#ffffff',
    border_color: '#e1e1e1',
    focus_color: '#000000',
    border_radius: null,
    btn_radius: null,
    action_text: null,
    start_call_text: null,
    end_call_text: null,
    expand_text: null,
    listening_text: null,
    speaking_text: null,
    shareable_page_text: null,
    shareable_page_show_terms: true,
    terms_text: null,
    terms_key: null,
    show_avatar_when_collapsed: false,
    disable_banner: false,
    mic_muting_enabled: false,
    transcript_enabled: false,
    text_input_enabled: true,
    default_expanded: false,
    always_expanded: false,
    language_selector: false,
    supports_text_only: true,
  },
  privacy: {
    record_voice: true,
    retention_days: -1,
    delete_transcript_and_pii: false,
    delete_audio: false,
    apply_to_existing_conversations: false,
    zero_retention_mode: false,
  },
  evaluation: { criteria: [] },
  data_collection: {},
  archived: false,
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The update rule of `PATCH /v1/convai/agents/{id}` (and of a stored config over the defaults): where the
 * shape has a section of named fields (a non-empty object in `shape`), the patch's fields merge into it one
 * by one; anything else (a value, a list, a map of names like `dynamic_variable_placeholders`, a tool, null)
 * replaces what was there whole. Undefined changes nothing. `shape` is AGENT_CONFIG_DEFAULTS or
 * AGENT_PLATFORM_DEFAULTS (not the stored value: a filled map of names must still be replaced whole).
 */
export function mergeAgentConfig<T>(base: T, patch: unknown, shape: unknown): T {
  if (patch === undefined) return base;
  if (!isPlainObject(patch) || !isPlainObject(shape) || Object.keys(shape).length === 0) return patch as T;
  const out: Record<string, unknown> = isPlainObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    out[key] = mergeAgentConfig(out[key], value, shape[key]);
  }
  return out as T;
}

/** A stored conversation config with every default filled in. */
export function resolveAgentConfig(stored: unknown): ResolvedConversationalConfig {
  return mergeAgentConfig(AGENT_CONFIG_DEFAULTS, stored, AGENT_CONFIG_DEFAULTS);
}

/** Stored platform settings with every default filled in. */
export function resolvePlatformSettings(stored: unknown): ResolvedAgentPlatformSettings {
  return mergeAgentConfig(AGENT_PLATFORM_DEFAULTS, stored, AGENT_PLATFORM_DEFAULTS);
}

// ---------------------------------------------------------------------------------------------------------
// Requests, responses and routes

const AgentName = z.string().trim().max(200, 'An agent name is at most 200 characters.');
const AgentTags = z
  .array(z.string().trim().min(1).max(50, 'A tag is at most 50 characters.'))
  .max(20, 'At most 20 tags.');

export const CreateAgentRequest = z.object({
  conversation_config: ConversationalConfigInput,
  platform_settings: AgentPlatformSettingsInput.optional(),
  name: AgentName.nullable().optional(),
  tags: AgentTags.nullable().optional(),
});
export type CreateAgentRequest = z.output<typeof CreateAgentRequest>;

export const UpdateAgentRequest = z.object({
  conversation_config: ConversationalConfigInput.optional(),
  platform_settings: AgentPlatformSettingsInput.optional(),
  name: AgentName.nullable().optional(),
  tags: AgentTags.nullable().optional(),
});
export type UpdateAgentRequest = z.output<typeof UpdateAgentRequest>;

/** `ResourceAccessInfo`: the caller's relation to an agent or tool. */
export const ResourceAccessInfo = z.object({
  is_creator: z.boolean(),
  creator_name: z.string(),
  creator_email: z.string(),
  role: z.enum(['admin', 'editor', 'commenter', 'viewer']),
});
export type ResourceAccessInfo = z.infer<typeof ResourceAccessInfo>;

/** `GetAgentResponseModel`. */
export const AgentResponse = z
  .object({
    agent_id: z.string(),
    name: z.string(),
    conversation_config: z.custom<ResolvedConversationalConfig>(),
    platform_settings: z.custom<ResolvedAgentPlatformSettings>(),
    metadata: z.object({ created_at_unix_secs: z.number().int(), updated_at_unix_secs: z.number().int() }),
    phone_numbers: z.array(z.unknown()),
    access_info: ResourceAccessInfo,
    tags: z.array(z.string()),
  })
  .meta({ id: 'Agent' });
export type AgentResponse = z.infer<typeof AgentResponse>;

/** `AgentSummaryResponseModel`. */
export const AgentSummary = z
  .object({
    agent_id: z.string(),
    name: z.string(),
    voice_id: z.string(),
    tags: z.array(z.string()),
    created_at_unix_secs: z.number().int(),
    access_info: ResourceAccessInfo,
    last_call_time_unix_secs: z.number().int().nullable(),
    archived: z.boolean(),
  })
  .meta({ id: 'AgentSummary' });
export type AgentSummary = z.infer<typeof AgentSummary>;

const AgentParams = z.object({ agent_id: z.string().min(1).max(64) });
const BooleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const createAgentRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/agents/create',
  summary: 'Create a conversational agent',
  tags: ['agents'],
  body: CreateAgentRequest,
  response: z.object({ agent_id: z.string() }),
});

export const getAgentRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/agents/:agent_id',
  summary: 'An agent with its whole configuration',
  tags: ['agents'],
  params: AgentParams,
  response: AgentResponse,
});

export const AGENT_SORT_BY = ['name', 'created_at', 'call_count_7d'] as const;
export const ListAgentsQuery = z.object({
  page_size: z.coerce
    .number()
    .int()
    .min(1, 'page_size is 1 to 100.')
    .max(100, 'page_size is 1 to 100.')
    .default(30),
  search: z.string().trim().max(200).optional(),
  archived: BooleanQuery.optional(),
  show_only_owned_agents: BooleanQuery.optional(),
  sort_direction: z.enum(['asc', 'desc']).default('desc'),
  sort_by: z.enum(AGENT_SORT_BY).default('created_at'),
  cursor: z.string().max(200).optional(),
});
export type ListAgentsQuery = z.output<typeof ListAgentsQuery>;

export const listAgentsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/agents',
  summary: 'The workspace’s agents, a page at a time',
  tags: ['agents'],
  query: ListAgentsQuery,
  response: z.object({
    agents: z.array(AgentSummary),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
  }),
});

export const updateAgentRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/convai/agents/:agent_id',
  summary: 'Change an agent: the given fields are merged into its configuration',
  tags: ['agents'],
  params: AgentParams,
  body: UpdateAgentRequest,
  response: AgentResponse,
});

export const deleteAgentRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/agents/:agent_id',
  summary: 'Delete an agent',
  tags: ['agents'],
  params: AgentParams,
  response: z.object({ status: z.literal('ok') }),
});

export const duplicateAgentRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/agents/:agent_id/duplicate',
  summary: 'Copy an agent, under a new name',
  tags: ['agents'],
  params: AgentParams,
  body: z.object({ name: AgentName.nullable().optional() }).optional(),
  response: z.object({ agent_id: z.string() }),
});

/** `WidgetConfigResponse`: the widget's appearance plus what it needs to start (language, first message). */
export const AgentWidgetConfig = z.custom<
  ResolvedAgentPlatformSettings['widget'] & {
    language: string;
    first_message: string;
    text_only: boolean;
    supported_language_overrides: string[];
  }
>();

export const getAgentWidgetRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/agents/:agent_id/widget',
  summary: 'The widget configuration of an agent (public agents: no key needed)',
  tags: ['agents'],
  params: AgentParams,
  query: z.object({ conversation_signature: z.string().max(2000).optional() }),
  response: z.object({ agent_id: z.string(), widget_config: AgentWidgetConfig }),
});

export const getAgentLinkRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/agents/:agent_id/link',
  summary: 'The shareable link of an agent',
  tags: ['agents'],
  params: AgentParams,
  response: z.object({
    agent_id: z.string(),
    /** Ours: the page a visitor opens to talk to the agent. */
    url: z.string(),
    token: z
      .object({
        agent_id: z.string(),
        conversation_token: z.string(),
        expiration_time_unix_secs: z.number().int().nullable(),
        purpose: z.literal('shareable_link'),
      })
      .nullable(),
  }),
});
