import {
  AGENT_CONFIG_DEFAULTS,
  AGENT_PLATFORM_DEFAULTS,
  mergeAgentConfig,
  resolveAgentConfig,
  resolvePlatformSettings,
} from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import {
  type AgentDraft,
  agentPatch,
  changedTabs,
  checkAgentPatch,
  errorAt,
  overrideAllowed,
  readAgentFieldErrors,
  systemToolOf,
  tabOfField,
  tabsWithErrors,
  widgetSnippet,
  withOverride,
  withPlatform,
  withPrompt,
  withTts,
} from './agent-editor-rules';

const saved: AgentDraft = {
  name: 'Support',
  conversation_config: AGENT_CONFIG_DEFAULTS,
  platform_settings: AGENT_PLATFORM_DEFAULTS,
};

describe('agentPatch', () => {
  it('is empty when nothing changed, even for a deep copy', () => {
    expect(agentPatch(saved, structuredClone(saved))).toEqual({});
  });

  it('sends only the changed fields of named sections, and lists and maps whole', () => {
    let draft = withPrompt(saved, {
      temperature: 0.4,
      knowledge_base: [{ type: 'text', name: 'FAQ', id: 'd1', usage_mode: 'auto' }],
    });
    draft = withTts(draft, { stability: 0.7 });
    draft = withPlatform(draft, 'data_collection', {
      order: { type: 'string', description: 'The order', enum: null },
    });
    expect(agentPatch(saved, draft)).toEqual({
      conversation_config: {
        agent: {
          prompt: {
            temperature: 0.4,
            knowledge_base: [{ type: 'text', name: 'FAQ', id: 'd1', usage_mode: 'auto' }],
          },
        },
        tts: { stability: 0.7 },
      },
      platform_settings: {
        data_collection: { order: { type: 'string', description: 'The order', enum: null } },
      },
    });
  });

  it('merged by the server rule over what was saved, gives back the draft', () => {
    let draft = withPrompt(saved, {
      prompt: 'Be brief.',
      built_in_tools: {
        ...saved.conversation_config.agent.prompt.built_in_tools,
        end_call: systemToolOf('end_call'),
      },
    });
    draft = withPlatform(draft, 'auth', { enable_auth: true, allowlist: [{ hostname: 'example.com' }] });
    draft = {
      ...draft,
      platform_settings: {
        ...draft.platform_settings,
        overrides: withOverride(draft.platform_settings.overrides, ['tts', 'speed'], true),
      },
    };
    const patch = agentPatch(saved, draft);
    expect(
      mergeAgentConfig(saved.conversation_config, patch.conversation_config, AGENT_CONFIG_DEFAULTS),
    ).toEqual(draft.conversation_config);
    expect(
      resolvePlatformSettings(
        mergeAgentConfig(saved.platform_settings, patch.platform_settings, AGENT_PLATFORM_DEFAULTS),
      ),
    ).toEqual(draft.platform_settings);
    expect(resolveAgentConfig(saved.conversation_config)).toEqual(saved.conversation_config);
  });

  it('marks the tabs a change touches', () => {
    const draft = withPrompt(withTts({ ...saved, name: 'New name' }, { speed: 1.1 }), { tool_ids: ['t1'] });
    expect([...changedTabs(agentPatch(saved, draft))].sort()).toEqual(['agent', 'tools', 'voice']);
    const widget = withPlatform(saved, 'widget', { bg_color: '#000000' });
    expect([...changedTabs(agentPatch(saved, widget))]).toEqual(['widget']);
  });
});

describe('field errors', () => {
  it('checks a patch with the contract and keys its messages by field', () => {
    const errors = checkAgentPatch(agentPatch(saved, withPrompt(saved, { temperature: 1.5 })));
    expect(errors).toEqual({
      'conversation_config.agent.prompt.temperature': 'The temperature is between 0 and 1.',
    });
    expect(tabsWithErrors(errors)).toEqual(new Set(['agent']));
  });

  it('reads the server’s 422 locations, body first, and ignores the rest', () => {
    const errors = readAgentFieldErrors({
      detail: {
        status: 'invalid_request',
        message: 'Choose a voice.',
        errors: [
          {
            loc: ['body', 'conversation_config', 'tts', 'voice_id'],
            msg: 'No voice v9 here.',
            type: 'value_error',
          },
          { loc: ['body', 'platform_settings', 'auth', 'allowlist', 0, 'hostname'], msg: 'Bad host.' },
          { loc: ['query', 'cursor'], msg: 'Not a field.' },
        ],
      },
    });
    expect(errors).toEqual({
      'conversation_config.tts.voice_id': 'No voice v9 here.',
      'platform_settings.auth.allowlist.0.hostname': 'Bad host.',
    });
    expect(errorAt(errors, 'platform_settings.auth.allowlist')).toBe('Bad host.');
    expect(tabsWithErrors(errors)).toEqual(new Set(['voice', 'security']));
    expect(readAgentFieldErrors({ detail: 'plain' })).toEqual({});
  });

  it('puts each field on its tab, the longest prefix winning', () => {
    expect(tabOfField('conversation_config.agent.prompt.knowledge_base.0.id')).toBe('knowledge-base');
    expect(tabOfField('conversation_config.agent.prompt.prompt')).toBe('agent');
    expect(tabOfField('conversation_config.agent.prompt.built_in_tools.end_call')).toBe('tools');
    expect(tabOfField('platform_settings.evaluation.criteria.0.name')).toBe('analysis');
    expect(tabOfField('name')).toBe('agent');
  });
});

describe('overrides, system tools and the snippet', () => {
  it('switches one override and keeps the others', () => {
    const overrides = withOverride(AGENT_PLATFORM_DEFAULTS.overrides, ['agent', 'prompt', 'llm'], true);
    expect(overrideAllowed(overrides, ['agent', 'prompt', 'llm'])).toBe(true);
    expect(overrideAllowed(overrides, ['agent', 'prompt', 'prompt'])).toBe(false);
    expect(overrides.conversation_config_override.tts).toEqual(
      AGENT_PLATFORM_DEFAULTS.overrides.conversation_config_override.tts,
    );
  });

  it('names a system tool after its kind, as the server requires', () => {
    expect(systemToolOf('transfer_to_agent')).toMatchObject({
      name: 'transfer_to_agent',
      params: { system_tool_type: 'transfer_to_agent', transfers: [] },
    });
    expect(
      checkAgentPatch({
        conversation_config: {
          agent: { prompt: { built_in_tools: { skip_turn: systemToolOf('skip_turn') } } },
        },
      }),
    ).toEqual({});
  });

  it('writes the embed snippet against this server', () => {
    expect(widgetSnippet('agent_1', 'https://parla.example/')).toBe(
      '<parla-convai agent-id="agent_1"></parla-convai><script src="https://parla.example/convai-widget.js" async></script>',
    );
  });
});
