import { describe, expect, it } from 'vitest';
import { ToolRequest } from './agent-tools';
import {
  AGENT_CONFIG_DEFAULTS,
  CreateAgentRequest,
  mergeAgentConfig,
  resolveAgentConfig,
  UpdateAgentRequest,
} from './agents';

const issues = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('agent config merge (PATCH /v1/convai/agents/{id})', () => {
  it('merges sections field by field and keeps what the patch does not name', () => {
    const stored = resolveAgentConfig({ agent: { prompt: { prompt: 'Be brief.', temperature: 0.3 } } });
    const merged = mergeAgentConfig(
      stored,
      {
        agent: { prompt: { temperature: 0.7 }, first_message: 'Hi!' },
      },
      AGENT_CONFIG_DEFAULTS,
    );
    expect(merged.agent.prompt.prompt).toBe('Be brief.');
    expect(merged.agent.prompt.temperature).toBe(0.7);
    expect(merged.agent.first_message).toBe('Hi!');
    expect(merged.tts).toEqual(AGENT_CONFIG_DEFAULTS.tts);
  });

  it('replaces lists and maps of names whole, so an entry can be removed', () => {
    const stored = resolveAgentConfig({
      agent: {
        prompt: { tool_ids: ['a', 'b'] },
        dynamic_variables: { dynamic_variable_placeholders: { user: 'Ann', plan: 'pro' } },
      },
    });
    const merged = mergeAgentConfig(
      stored,
      {
        agent: {
          prompt: { tool_ids: ['b'] },
          dynamic_variables: { dynamic_variable_placeholders: { user: 'Bo' } },
        },
      },
      AGENT_CONFIG_DEFAULTS,
    );
    expect(merged.agent.prompt.tool_ids).toEqual(['b']);
    expect(merged.agent.dynamic_variables.dynamic_variable_placeholders).toEqual({ user: 'Bo' });
  });

  it('switches a built-in tool off with null and leaves the others', () => {
    const endCall = { type: 'system', name: 'end_call', params: { system_tool_type: 'end_call' } };
    const skip = { type: 'system', name: 'skip_turn', params: { system_tool_type: 'skip_turn' } };
    const stored = resolveAgentConfig({
      agent: { prompt: { built_in_tools: { end_call: endCall, skip_turn: skip } } },
    });
    const merged = mergeAgentConfig(
      stored,
      { agent: { prompt: { built_in_tools: { end_call: null } } } },
      AGENT_CONFIG_DEFAULTS,
    );
    expect(merged.agent.prompt.built_in_tools.end_call).toBeNull();
    expect(merged.agent.prompt.built_in_tools.skip_turn).toEqual(skip);
  });

  it('does not let an undefined field erase a stored one', () => {
    const stored = resolveAgentConfig({ tts: { voice_id: 'v1' } });
    expect(
      mergeAgentConfig(stored, { tts: { voice_id: undefined } }, AGENT_CONFIG_DEFAULTS).tts.voice_id,
    ).toBe('v1');
  });

  it('fills every default of a sparse stored config (the public API defaults)', () => {
    const resolved = resolveAgentConfig({});
    expect(resolved.agent.prompt.temperature).toBe(0);
    expect(resolved.agent.prompt.max_tokens).toBe(-1);
    expect(resolved.agent.language).toBe('en');
    expect(resolved.turn.turn_timeout).toBe(7);
    expect(resolved.conversation.max_duration_seconds).toBe(600);
    expect(resolved.asr.user_input_audio_format).toBe('pcm_16000');
    expect(resolved.tts.agent_output_audio_format).toBe('pcm_16000');
  });
});

describe('agent request validation', () => {
  it('refuses out-of-range values with a message at the field', () => {
    const result = CreateAgentRequest.safeParse({
      conversation_config: {
        agent: { prompt: { temperature: 1.5, max_tokens: 0 }, language: 'xx' },
        tts: { stability: 2, speed: 3, agent_output_audio_format: 'mp3_44100_128' },
        turn: { turn_timeout: 0 },
        conversation: { max_duration_seconds: 100_000 },
      },
    });
    expect(issues(result)).toEqual([
      'conversation_config.agent.language: The language is one of the agent language codes (en, fr, de, pt-br, …).',
      'conversation_config.agent.prompt.temperature: The temperature is between 0 and 1.',
      'conversation_config.agent.prompt.max_tokens: max_tokens is -1 (no limit) or 1 to 32,768.',
      'conversation_config.tts.agent_output_audio_format: The output format is one of pcm_8000, pcm_16000, pcm_22050, pcm_24000, pcm_44100, pcm_48000, ulaw_8000.',
      'conversation_config.tts.stability: Stability is between 0 and 1.',
      'conversation_config.tts.speed: The speed is between 0.7 and 1.2.',
      'conversation_config.turn.turn_timeout: The turn timeout is -1 (off) or 1 to 30 seconds.',
      'conversation_config.conversation.max_duration_seconds: The longest conversation is 1 to 7200 seconds.',
    ]);
  });

  it('accepts and drops the fields the SDK sends that Parla does not use', () => {
    const parsed = UpdateAgentRequest.parse({
      conversation_config: { vad: { background_voice_detection: true }, agent: { hinglish_mode: false } },
      platform_settings: { guardrails: {}, call_limits: { daily_limit: 5 } },
      workflow: { nodes: {} },
    });
    expect(parsed).toEqual({ conversation_config: { agent: {} }, platform_settings: {} });
  });

  it('refuses telephony system tools but accepts them null', () => {
    const tool = { type: 'system', name: 't', params: { system_tool_type: 'end_call' } };
    const body = (value: unknown) => ({
      conversation_config: { agent: { prompt: { built_in_tools: { transfer_to_number: value } } } },
    });
    expect(CreateAgentRequest.safeParse(body(null)).success).toBe(true);
    expect(issues(CreateAgentRequest.safeParse(body(tool)))).toEqual([
      'conversation_config.agent.prompt.built_in_tools.transfer_to_number: Telephony tools are not served by Parla; leave it null.',
    ]);
  });
});

describe('tool validation', () => {
  const webhook = (api_schema: Record<string, unknown>) => ({
    tool_config: { type: 'webhook', name: 'lookup', description: 'Looks an order up.', api_schema },
  });

  it('wants each URL placeholder described and each path parameter in the URL', () => {
    expect(issues(ToolRequest.safeParse(webhook({ url: 'https://api.example.com/orders/{id}' })))).toEqual([
      "tool_config.api_schema.path_params_schema: The URL's {id} needs a path parameter of that name.",
    ]);
    const ok = ToolRequest.safeParse(
      webhook({
        url: 'https://api.example.com/orders/{id}',
        path_params_schema: { id: { type: 'string', description: 'The order number' } },
      }),
    );
    expect(ok.success).toBe(true);
  });

  it('refuses a body on GET and a parameter with two value sources', () => {
    const result = ToolRequest.safeParse(
      webhook({
        url: 'https://api.example.com/search',
        method: 'GET',
        request_body_schema: {
          type: 'object',
          properties: { q: { type: 'string', description: 'What to find', constant_value: 'x' } },
        },
      }),
    );
    expect(issues(result)).toEqual([
      'tool_config.api_schema.request_body_schema.properties.q: A parameter takes its value from one source only, not description and constant_value.',
      'tool_config.api_schema.request_body_schema: A GET request has no body: use POST, PUT or PATCH, or query parameters.',
    ]);
  });

  it('keeps a client tool waiting forever only when it expects an answer', () => {
    const client = (extra: Record<string, unknown>) => ({
      tool_config: {
        type: 'client',
        name: 'show',
        description: 'Shows a card.',
        response_timeout_secs: -1,
        ...extra,
      },
    });
    expect(issues(ToolRequest.safeParse(client({})))).toEqual([
      'tool_config.response_timeout_secs: A timeout of -1 needs expects_response: true.',
    ]);
    expect(ToolRequest.safeParse(client({ expects_response: true })).success).toBe(true);
  });

  it('refuses MCP tools with a clear message', () => {
    expect(issues(ToolRequest.safeParse({ tool_config: { type: 'mcp' } }))).toEqual([
      'tool_config.type: A tool is of type webhook, client or system (MCP tools are not served by Parla).',
    ]);
  });
});
