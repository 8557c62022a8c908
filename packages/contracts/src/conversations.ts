import { z } from 'zod';
import { defineRoute } from './routes';

/*
 * Conversations with agents (issue 28 items 2, 5 and 6): the conversation socket's protocol as
 * `@elevenlabs/client` 1.25 speaks it (its message types are `@elevenlabs/types`), the signed URL that
 * opens it, and the conversations kept afterwards (`conversationalAi.conversations` in
 * `@elevenlabs/elevenlabs-js`). The wire is snake_case throughout.
 */

/** The audio formats of the socket, both ways: the client parses `pcm_<rate>` and `ulaw_8000` only. */
export const CONVERSATION_AUDIO_FORMATS = [
  'pcm_8000',
  'pcm_16000',
  'pcm_22050',
  'pcm_24000',
  'pcm_44100',
  'pcm_48000',
  'ulaw_8000',
] as const;
export type ConversationAudioFormat = (typeof CONVERSATION_AUDIO_FORMATS)[number];

/** The sample rate of a socket audio format. */
export function conversationFormatRate(format: ConversationAudioFormat): number {
  return Number(format.slice(format.indexOf('_') + 1));
}

export const CONVERSATION_LIMITS = {
  /**
   * The largest client message: a second of 48 kHz PCM is 128 KB of base64, and the client sends about
   * a tenth of a second at a time; anything much larger is not a microphone.
   */
  maxMessageBytes: 1024 * 1024,
  /** A user_message or contextual_update's text. */
  maxTextCharacters: 10_000,
  /** How long a signed URL opens a conversation (it opens one, once). */
  signedUrlTtlMs: 15 * 60 * 1000,
  /** The server's ping to the client, to measure the round trip (the client answers with pong). */
  pingEveryMs: 5_000,
  /** How long a client tool's result is awaited before the agent goes on without it. */
  clientToolTimeoutMs: 30_000,
} as const;

/** The close codes and error event codes the protocol uses (`error_event.code`). */
export const CONVERSATION_ERROR_TYPES = [
  'invalid_message',
  'invalid_audio',
  'message_too_large',
  'agent_not_found',
  'unauthorized',
  'quota_exceeded',
  'too_many_concurrent_conversations',
  'max_duration_exceeded',
  'internal_error',
] as const;
export type ConversationErrorType = (typeof CONVERSATION_ERROR_TYPES)[number];

/** `conversation_initiation_client_data`: what the client may set for this conversation. */
export const ConversationInitiationClientData = z.object({
  type: z.literal('conversation_initiation_client_data'),
  conversation_config_override: z
    .object({
      agent: z
        .object({
          prompt: z
            .object({ prompt: z.string().max(50_000).optional() })
            .passthrough()
            .optional(),
          first_message: z.string().max(2_000).optional(),
          language: z.string().max(16).optional(),
        })
        .passthrough()
        .optional(),
      tts: z
        .object({
          voice_id: z.string().max(64).optional(),
          speed: z.number().min(0.7).max(1.2).optional(),
          stability: z.number().min(0).max(1).optional(),
          similarity_boost: z.number().min(0).max(1).optional(),
        })
        .passthrough()
        .optional(),
      conversation: z.object({ text_only: z.boolean().optional() }).passthrough().optional(),
    })
    .passthrough()
    .nullish(),
  dynamic_variables: z
    .record(z.string().max(128), z.union([z.string().max(2_000), z.number(), z.boolean()]))
    .nullish(),
  user_id: z.string().max(256).nullish(),
  source_info: z
    .object({ source: z.string().max(64), version: z.string().max(64) })
    .partial()
    .nullish(),
  custom_llm_extra_body: z.unknown().optional(),
});
export type ConversationInitiationClientData = z.infer<typeof ConversationInitiationClientData>;

// ---------------------------------------------------------------------------------------------------
// Signed URLs and the WebRTC token

export const getSignedUrlRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/conversation/get-signed-url',
  summary: 'A URL that opens one conversation with a private agent from a browser, within 15 minutes',
  tags: ['agents'],
  query: z.object({
    agent_id: z.string().min(1).max(64),
    include_conversation_id: z.coerce.boolean().optional(),
    branch_id: z.string().max(64).optional(),
  }),
  response: z.object({ signed_url: z.string() }),
});

export const getConversationTokenRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/conversation/token',
  summary: 'A WebRTC conversation token (refused: this server holds conversations over WebSocket only)',
  tags: ['agents'],
  query: z.object({ agent_id: z.string().max(64).optional() }).passthrough(),
  response: z.object({ token: z.string() }),
});

/** The answer to a WebRTC token request. */
export const WEBSOCKET_ONLY_MESSAGE =
  "This server holds conversations over WebSocket only; WebRTC (LiveKit) is not served. Start the session with connectionType: 'websocket' and a signedUrl or origin.";

// ---------------------------------------------------------------------------------------------------
// Conversations kept

export const CONVERSATION_STATUSES = ['initiated', 'in-progress', 'processing', 'done', 'failed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** How an agent answered: through a language model, or with the best passage of its knowledge base. */
export const RESPONSE_MODES = ['llm', 'knowledge_base'] as const;
export type ResponseMode = (typeof RESPONSE_MODES)[number];

export const ConversationToolCall = z.object({
  type: z.enum(['system', 'webhook', 'client', 'mcp']).optional(),
  request_id: z.string(),
  tool_name: z.string(),
  params_as_json: z.string(),
  tool_has_been_called: z.boolean(),
});

export const ConversationToolResult = z.object({
  request_id: z.string(),
  tool_name: z.string(),
  result_value: z.string(),
  is_error: z.boolean(),
  tool_has_been_called: z.boolean(),
  type: z.enum(['system', 'webhook', 'client', 'mcp']).optional(),
});

export const ConversationTranscriptTurn = z.object({
  role: z.enum(['user', 'agent']),
  message: z.string().nullable(),
  time_in_call_secs: z.number(),
  tool_calls: z.array(ConversationToolCall),
  tool_results: z.array(ConversationToolResult),
  feedback: z.null(),
  interrupted: z.boolean().optional(),
  source_medium: z.enum(['audio', 'text']).nullable().optional(),
  rag_retrieval_info: z
    .object({
      chunks: z.array(
        z.object({ document_id: z.string(), chunk_id: z.string(), vector_distance: z.number() }),
      ),
      /** The embedding model that ranked the passages (LLM_EMBEDDING_MODEL), or `full_text` when words alone did. */
      embedding_model: z.string(),
      retrieval_query: z.string(),
      rag_latency_secs: z.number(),
    })
    .nullable()
    .optional(),
  conversation_turn_metrics: z
    .object({ metrics: z.record(z.string(), z.unknown()) })
    .nullable()
    .optional(),
});
export type ConversationTranscriptTurn = z.infer<typeof ConversationTranscriptTurn>;

/** Post-call analysis through the language model (the agent's evaluation criteria and data to collect). */
export const ConversationAnalysis = z.object({
  call_successful: z.enum(['success', 'failure', 'unknown']),
  transcript_summary: z.string(),
  call_summary_title: z.string().nullable(),
  evaluation_criteria_results: z.record(
    z.string(),
    z.object({
      criteria_id: z.string(),
      result: z.enum(['success', 'failure', 'unknown']),
      rationale: z.string(),
    }),
  ),
  data_collection_results: z.record(
    z.string(),
    z.object({ data_collection_id: z.string(), value: z.unknown(), rationale: z.string() }),
  ),
});
export type ConversationAnalysis = z.infer<typeof ConversationAnalysis>;

export const ConversationSummary = z.object({
  agent_id: z.string(),
  agent_name: z.string().nullable(),
  conversation_id: z.string(),
  start_time_unix_secs: z.number().int(),
  call_duration_secs: z.number().int(),
  message_count: z.number().int(),
  status: z.enum(CONVERSATION_STATUSES),
  termination_reason: z.string().nullable(),
  call_successful: z.enum(['success', 'failure', 'unknown']),
  transcript_summary: z.string().nullable(),
  call_summary_title: z.string().nullable(),
  main_language: z.string().nullable(),
  tool_names: z.array(z.string()),
  rating: z.number().nullable(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

export const ConversationsPage = z.object({
  conversations: z.array(ConversationSummary),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});

/** The `phone_call` part of a conversation's metadata (the SDK's Twilio phone-call model). */
export const ConversationPhoneCall = z.object({
  type: z.literal('twilio'),
  direction: z.enum(['inbound', 'outbound']),
  phone_number_id: z.string().nullable(),
  agent_number: z.string(),
  external_number: z.string(),
  stream_sid: z.string(),
  call_sid: z.string(),
});
export type ConversationPhoneCall = z.infer<typeof ConversationPhoneCall>;

export const ConversationDetail = z.object({
  agent_id: z.string(),
  agent_name: z.string().nullable(),
  conversation_id: z.string(),
  status: z.enum(CONVERSATION_STATUSES),
  user_id: z.string().nullable(),
  transcript: z.array(ConversationTranscriptTurn),
  metadata: z.object({
    start_time_unix_secs: z.number().int(),
    call_duration_secs: z.number().int(),
    /** Minutes charged against the plan (each started minute of connection). */
    cost: z.number().int(),
    termination_reason: z.string().nullable(),
    main_language: z.string().nullable(),
    text_only: z.boolean(),
    feedback: z.object({
      overall_score: z.enum(['like', 'dislike']).nullable(),
      likes: z.number().int(),
      dislikes: z.number().int(),
    }),
    authorization_method: z.enum(['public', 'signed_url', 'authorization_header']),
    /** Parla: how the agent answered (a language model, or its knowledge base's best passage). */
    response_mode: z.enum(RESPONSE_MODES),
    /** Parla: why knowledge-base mode, or which model answered. */
    response_mode_reason: z.string().nullable(),
    error: z.object({ code: z.number().int(), reason: z.string().nullable() }).nullable(),
    /** The phone call it was, when it came over a phone number (null otherwise). */
    phone_call: ConversationPhoneCall.nullable(),
  }),
  analysis: ConversationAnalysis.nullable(),
  conversation_initiation_client_data: z.record(z.string(), z.unknown()).nullable(),
  has_audio: z.boolean(),
  has_user_audio: z.boolean(),
  has_response_audio: z.boolean(),
  has_auxiliary_audio: z.boolean(),
});
export type ConversationDetail = z.infer<typeof ConversationDetail>;

const conversationParams = z.object({ conversation_id: z.string().min(1).max(64) });

export const listConversationsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/conversations',
  summary: "The workspace's conversations, newest first",
  tags: ['agents'],
  query: z.object({
    cursor: z.string().max(200).optional(),
    agent_id: z.string().max(64).optional(),
    call_successful: z.enum(['success', 'failure', 'unknown']).optional(),
    call_start_before_unix: z.coerce.number().int().optional(),
    call_start_after_unix: z.coerce.number().int().optional(),
    page_size: z.coerce.number().int().min(1).max(100).default(30),
    search: z.string().max(200).optional(),
    summary_mode: z.enum(['exclude', 'include']).optional(),
    user_id: z.string().max(256).optional(),
  }),
  response: ConversationsPage,
});

export const getConversationRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/conversations/:conversation_id',
  summary: 'One conversation: its transcript with times and tool calls, metadata and analysis',
  tags: ['agents'],
  params: conversationParams,
  response: ConversationDetail,
});

export const getConversationAudioRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/conversations/:conversation_id/audio',
  summary: 'The recording of a conversation (both sides, MP3)',
  tags: ['agents'],
  params: conversationParams,
  response: z.any().meta({ description: 'The recording, audio/mpeg' }),
});

export const deleteConversationRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/conversations/:conversation_id',
  summary: 'Deletes a conversation with its transcript and recording',
  tags: ['agents'],
  params: conversationParams,
  response: z.object({}).passthrough(),
});

export const conversationFeedbackRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/conversations/:conversation_id/feedback',
  summary:
    'Like or dislike a conversation (null takes it back), or rate it 1–5 with a comment. The conversation id is the permission: the client sends it from the page, without a key',
  tags: ['agents'],
  params: conversationParams,
  body: z
    .object({
      feedback: z.enum(['like', 'dislike']).nullable().optional(),
      rating: z.number().int().min(1).max(5).optional(),
      comment: z.string().max(2_000).optional(),
    })
    .refine((b) => b.feedback !== undefined || b.rating !== undefined, {
      message: 'Send feedback ("like", "dislike" or null) or a rating from 1 to 5.',
    }),
  response: z.object({}).passthrough(),
});

// ---------------------------------------------------------------------------------------------------
// How this server's agents answer (Parla's own call, for the agent editor)

export const LlmStatusResponse = z.object({
  /** `llm`: a language model answers; `knowledge_base`: none is configured, the best passage does. */
  mode: z.enum(RESPONSE_MODES),
  /** `embedded` (the model store's small model), `openai` (an OpenAI-compatible server), `none`. */
  provider: z.enum(['embedded', 'openai', 'none']),
  model: z.string().nullable(),
  tool_calls: z.boolean(),
  /** What the model is good for, or why there is none, in plain words. */
  note: z.string().nullable(),
});
export type LlmStatusResponse = z.infer<typeof LlmStatusResponse>;

export const llmStatusRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/llm-status',
  summary: "How this server's agents answer: the language model it is set up with, or knowledge-base mode",
  tags: ['agents'],
  response: LlmStatusResponse,
});

// ---------------------------------------------------------------------------------------------------
// Conversation minutes this period (accounts §9), for the usage page

export const ConversationUsageResponse = z.object({
  /** Minutes of the plan used this credit period (each started minute of a connected conversation). */
  minutes_used: z.number().int(),
  minutes_limit: z.number().int(),
  /** Minutes past the plan's, on plans that sell extra minutes. */
  extra_minutes: z.number().int(),
  extra_minutes_allowed: z.boolean(),
  /** Conversations open now, and how many the plan allows at once. */
  open_conversations: z.number().int(),
  concurrency_limit: z.number().int(),
});
export type ConversationUsageResponse = z.infer<typeof ConversationUsageResponse>;

export const conversationUsageRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/usage',
  summary: "The workspace's conversation minutes this period and its conversations open now",
  tags: ['agents'],
  response: ConversationUsageResponse,
});
