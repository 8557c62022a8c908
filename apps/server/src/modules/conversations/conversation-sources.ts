import type { ConversationAudioFormat } from '@parla/contracts';
import type { AppDeps } from '../../app-deps';
import type { ChatMessage as LlmMessage, LlmProvider } from '../../providers/llm/llm-provider';
import {
  agentDepsOf,
  type ConversationAgent,
  type ConversationTool,
  loadAgentForConversation,
  recordAgentCall,
} from '../agents';
import { knowledgeBaseDepsOf, searchKnowledge } from '../knowledge-base';
import type { ConversationSources } from './conversation-services';
import { type ChatEvent, type ChatMessage, type ChatModel, SYSTEM_TOOLS } from './responder';
import type { SessionAgent, SessionTool } from './session-agent';

/*
 * The app's side of a conversation's sources (issue 28): the agents module's agent resolved into what the
 * session uses, the knowledge base's search, and the LLM provider adapted to the responder's chat model.
 */

/** The most tokens of a spoken answer when the agent sets none (-1): a few sentences. */
const DEFAULT_MAX_TOKENS = 300;

function toolOf(tool: ConversationTool): SessionTool {
  const config = tool.config;
  if (tool.type === 'webhook') {
    const schema = tool.config.api_schema;
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const [name, param] of Object.entries(schema.path_params_schema)) {
      properties[name] = param;
      required.push(name);
    }
    for (const [name, param] of Object.entries(schema.query_params_schema?.properties ?? {}))
      properties[name] = param;
    required.push(...(schema.query_params_schema?.required ?? []));
    for (const [name, param] of Object.entries(schema.request_body_schema?.properties ?? {}))
      properties[name] = param;
    required.push(...(schema.request_body_schema?.required ?? []));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(tool.headers))
      headers[name] = 'value' in value ? value.value : `{{${value.variableName}}}`;
    return {
      name: config.name,
      description: config.description,
      parameters: { type: 'object', properties, required },
      type: 'webhook',
      webhook: {
        url: schema.url,
        method: schema.method,
        headers,
        pathParams: Object.keys(schema.path_params_schema),
        queryParams: Object.keys(schema.query_params_schema?.properties ?? {}),
        timeoutMs: tool.config.response_timeout_secs * 1000,
      },
    };
  }
  if (tool.type === 'client') {
    const timeout = tool.config.response_timeout_secs;
    return {
      name: config.name,
      description: config.description,
      parameters: { type: 'object', properties: {}, ...(tool.config.parameters ?? {}) },
      type: 'client',
      expectsResponse: tool.config.expects_response,
      timeoutMs: timeout === -1 ? 3_600_000 : timeout * 1000,
    };
  }
  const system = SYSTEM_TOOLS[config.name];
  return {
    name: config.name,
    description: config.description || system?.description || config.name,
    parameters: system?.parameters ?? { type: 'object', properties: {} },
    type: 'system',
  };
}

/** The agents module's agent as the session uses it. */
export function sessionAgentOf(agent: ConversationAgent): SessionAgent {
  const c = agent.config;
  const p = agent.platformSettings;
  const o = p.overrides.conversation_config_override;
  const tools = agent.tools.map(toolOf);
  // The built-in system tools switched on in the prompt.
  for (const [name, config] of Object.entries(c.agent.prompt.built_in_tools)) {
    const system = SYSTEM_TOOLS[name];
    if (!config || !system || tools.some((t) => t.name === name)) continue;
    tools.push({
      name,
      description: (config as { description?: string }).description || system.description,
      parameters: system.parameters,
      type: 'system',
    });
  }
  // The approved tools of the agent's MCP servers, beside its own: an MCP tool whose name one of those
  // already has is left out (the LLM tells tools apart by name), and a name the LLM APIs refuse is cut
  // to their alphabet (the call still names the tool as its server does).
  for (const mcp of agent.mcpTools) {
    const name = mcp.tool.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
    if (!name || tools.some((t) => t.name === name)) continue;
    tools.push({
      name,
      description: mcp.tool.description || mcp.tool.title || mcp.tool.name,
      parameters: { type: 'object', properties: {}, ...mcp.tool.inputSchema },
      type: 'mcp',
      mcp: { serverId: mcp.serverId, call: mcp.call },
    });
  }
  const variables: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(c.agent.dynamic_variables.dynamic_variable_placeholders ?? {}))
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      variables[name] = value;
  return {
    agentId: agent.agentId,
    name: agent.name,
    workspaceId: agent.workspaceId,
    ownerUserId: agent.createdBy ?? '',
    prompt: c.agent.prompt.prompt,
    llm: c.agent.prompt.llm,
    temperature: c.agent.prompt.temperature,
    maxTokens: c.agent.prompt.max_tokens > 0 ? c.agent.prompt.max_tokens : DEFAULT_MAX_TOKENS,
    firstMessage: c.agent.first_message,
    language: c.agent.language,
    voiceId: c.tts.voice_id,
    ttsModelId: c.tts.model_id,
    stability: c.tts.stability,
    similarityBoost: c.tts.similarity_boost,
    speed: c.tts.speed,
    outputFormat: c.tts.agent_output_audio_format as ConversationAudioFormat,
    inputFormat: c.asr.user_input_audio_format as ConversationAudioFormat,
    turnTimeoutSecs: c.turn.turn_timeout,
    silenceEndCallSecs: c.turn.silence_end_call_timeout,
    turnEagerness: c.turn.turn_eagerness,
    maxDurationSecs: c.conversation.max_duration_seconds,
    textOnly: c.conversation.text_only,
    knowledgeBaseIds: agent.knowledgeBase.map((d) => d.id),
    tools,
    auth: p.auth,
    overrides: {
      prompt: o.agent.prompt.prompt,
      firstMessage: o.agent.first_message,
      language: o.agent.language,
      voiceId: o.tts.voice_id,
      textOnly: o.conversation.text_only,
      stability: o.tts.stability,
      speed: o.tts.speed,
      similarityBoost: o.tts.similarity_boost,
    },
    recordVoice: p.privacy.record_voice,
    retentionDays: p.privacy.retention_days,
    initiationFromWebhook: p.overrides.enable_conversation_initiation_client_data_from_webhook === true,
    dynamicVariables: variables,
    analysis: {
      criteria: p.evaluation.criteria.map((c) => ({
        id: c.id,
        name: c.name,
        prompt: c.conversation_goal_prompt,
      })),
      data: Object.entries(p.data_collection).map(([id, d]) => ({
        id,
        type: d.type,
        description: d.description,
        enum: d.enum ?? null,
      })),
    },
  };
}

function toLlmMessage(message: ChatMessage): LlmMessage {
  if (message.role === 'assistant')
    return {
      role: 'assistant',
      content: message.content || null,
      ...(message.toolCalls?.length
        ? {
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              name: call.name,
              arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
            })),
          }
        : {}),
    };
  if (message.role === 'tool')
    return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  return message;
}

/** The LLM provider as the responder's chat model. */
export function chatModelOf(llm: LlmProvider): ChatModel {
  const status = llm.status();
  return {
    name: `${status.name}${status.model ? `: ${status.model}` : ''}`,
    async *chat(request) {
      for await (const event of llm.chat({
        messages: request.messages.map(toLlmMessage),
        ...(request.tools.length > 0 && status.toolCalls ? { tools: request.tools } : {}),
        temperature: request.temperature,
        maxTokens: request.maxTokens,
        signal: request.signal,
      })) {
        if (event.type === 'text') yield { type: 'text', text: event.delta } satisfies ChatEvent;
        else if (event.type === 'tool_call')
          yield {
            type: 'tool_call',
            call: {
              id: event.call.id,
              name: event.call.name,
              arguments:
                !event.call.argumentsInvalid &&
                typeof event.call.arguments === 'object' &&
                event.call.arguments !== null &&
                !Array.isArray(event.call.arguments)
                  ? (event.call.arguments as Record<string, unknown>)
                  : String(event.call.arguments),
            },
          };
        else yield { type: 'done', finishReason: event.finishReason };
      }
    },
  };
}

export function conversationSourcesOf(deps: AppDeps): ConversationSources {
  const agents = agentDepsOf(deps);
  const kb = knowledgeBaseDepsOf(deps);
  return {
    async loadAgent(agentId) {
      const agent = await loadAgentForConversation(agents, agentId);
      return agent ? sessionAgentOf(agent) : undefined;
    },
    started(agentId) {
      void recordAgentCall(agents, agentId).catch(() => undefined);
    },
    chatModel() {
      const llm = deps.providers.llm;
      const status = llm.status();
      if (!status.available) return { reason: status.reason ?? 'No language model is configured.' };
      llm.warmUp?.();
      return { model: chatModelOf(llm) };
    },
    async searchKnowledge(workspaceId, documentIds, query, limit) {
      const hits = await searchKnowledge(kb, workspaceId, documentIds, query, limit, {
        // The turn goes on with full-text search alone; the operator sees why the vectors were not used.
        onError: (error) =>
          deps.logger.warn({ err: error }, 'the query could not be embedded: full-text retrieval alone'),
      });
      return hits.map((h) => ({
        documentId: h.document_id,
        documentName: h.document_name,
        chunkId: h.chunk_id,
        text: h.text,
        score: h.score,
        retrieval: h.retrieval,
      }));
    },
  };
}
