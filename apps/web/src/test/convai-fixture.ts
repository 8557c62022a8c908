import {
  type AgentSummary,
  AgentSummary as AgentSummarySchema,
  type ConversationDetail,
  ConversationDetail as ConversationDetailSchema,
  type ConversationSummary,
  ConversationSummary as ConversationSummarySchema,
  KnowledgeBaseDocumentResponse as DocumentSchema,
  KnowledgeBaseDocumentSummary as DocumentSummarySchema,
  type KnowledgeBaseDocumentResponse,
  type KnowledgeBaseDocumentSummary,
} from '@parla/contracts';

const access = {
  is_creator: true,
  creator_name: 'Ada',
  creator_email: 'ada@example.test',
  role: 'admin',
} as const;

/** A contract-valid knowledge-base list row (a text document unless overridden). */
export function makeDocumentSummary(overrides: Record<string, unknown> = {}): KnowledgeBaseDocumentSummary {
  return DocumentSummarySchema.parse({
    id: 'd1',
    name: 'Opening hours',
    type: 'text',
    metadata: {
      created_at_unix_secs: 1_790_000_000,
      last_updated_at_unix_secs: 1_790_000_000,
      size_bytes: 2048,
    },
    supported_usages: ['prompt', 'auto'],
    access_info: access,
    dependent_agents: [],
    ...overrides,
  });
}

/** A contract-valid document as `GET /v1/convai/knowledge-base/{id}` answers it. */
export function makeDocument(overrides: Record<string, unknown> = {}): KnowledgeBaseDocumentResponse {
  return DocumentSchema.parse({
    id: 'd1',
    name: 'Opening hours',
    type: 'text',
    metadata: {
      created_at_unix_secs: 1_790_000_000,
      last_updated_at_unix_secs: 1_790_000_000,
      size_bytes: 2048,
    },
    supported_usages: ['prompt', 'auto'],
    access_info: access,
    extracted_inner_html: '<p>We open at 9.</p><p>We close at 5.</p>',
    content_format: 'html',
    ...overrides,
  });
}

/** A contract-valid agent of the pickers. */
export function makeAgentSummary(overrides: Partial<AgentSummary> = {}): AgentSummary {
  return AgentSummarySchema.parse({
    agent_id: 'a1',
    name: 'Front desk',
    voice_id: 'v1',
    tags: [],
    created_at_unix_secs: 1_790_000_000,
    access_info: access,
    last_call_time_unix_secs: null,
    archived: false,
    ...overrides,
  });
}

/** A contract-valid row of the call history. */
export function makeConversationSummary(overrides: Partial<ConversationSummary> = {}): ConversationSummary {
  return ConversationSummarySchema.parse({
    agent_id: 'a1',
    agent_name: 'Front desk',
    conversation_id: 'c1',
    start_time_unix_secs: 1_790_000_000,
    call_duration_secs: 95,
    message_count: 4,
    status: 'done',
    termination_reason: null,
    call_successful: 'unknown',
    transcript_summary: null,
    call_summary_title: null,
    main_language: 'en',
    tool_names: [],
    rating: null,
    ...overrides,
  });
}

/** A contract-valid conversation: a greeting, a question answered from the knowledge base, a tool call. */
export function makeConversationDetail(
  overrides: Partial<Omit<ConversationDetail, 'metadata'>> & {
    metadata?: Partial<ConversationDetail['metadata']>;
  } = {},
): ConversationDetail {
  const { metadata, ...rest } = overrides;
  return ConversationDetailSchema.parse({
    agent_id: 'a1',
    agent_name: 'Front desk',
    conversation_id: 'c1',
    status: 'done',
    user_id: null,
    transcript: [
      {
        role: 'agent',
        message: 'Hello! How can I help?',
        time_in_call_secs: 0,
        tool_calls: [],
        tool_results: [],
        feedback: null,
      },
      {
        role: 'user',
        message: 'When do you open?',
        time_in_call_secs: 4,
        tool_calls: [],
        tool_results: [],
        feedback: null,
      },
      {
        role: 'agent',
        message: 'We open at 9.',
        time_in_call_secs: 65,
        tool_calls: [
          {
            type: 'webhook',
            request_id: 'r1',
            tool_name: 'check_calendar',
            params_as_json: '{"day":"monday"}',
            tool_has_been_called: true,
          },
        ],
        tool_results: [
          {
            type: 'webhook',
            request_id: 'r1',
            tool_name: 'check_calendar',
            result_value: '{"open":"09:00"}',
            is_error: false,
            tool_has_been_called: true,
          },
        ],
        feedback: null,
      },
    ],
    metadata: {
      start_time_unix_secs: 1_790_000_000,
      call_duration_secs: 95,
      cost: 2,
      termination_reason: 'The user ended the conversation.',
      main_language: 'en',
      text_only: false,
      feedback: { overall_score: null, likes: 0, dislikes: 0 },
      authorization_method: 'signed_url',
      response_mode: 'knowledge_base',
      response_mode_reason: 'No language model is configured.',
      error: null,
      phone_call: null,
      ...metadata,
    },
    analysis: null,
    conversation_initiation_client_data: null,
    has_audio: true,
    has_user_audio: true,
    has_response_audio: true,
    has_auxiliary_audio: false,
    ...rest,
  });
}
