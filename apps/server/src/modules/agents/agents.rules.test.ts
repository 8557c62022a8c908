import { AGENT_PLATFORM_DEFAULTS, resolveAgentConfig } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { configProblems, decodeCursor, encodeCursor, originAllowed } from './agents.rules';

const auth = (hosts: string[], requireOrigin = false) => ({
  ...AGENT_PLATFORM_DEFAULTS.auth,
  allowlist: hosts.map((hostname) => ({ hostname })),
  require_origin_header: requireOrigin,
});

describe('originAllowed (an agent’s allowlist)', () => {
  it('lets any origin in when the list is empty', () => {
    expect(originAllowed(auth([]), 'https://anywhere.test')).toBe(true);
  });
  it('matches the host, a listed port exactly, and subdomains only through *.', () => {
    const list = auth(['shop.example.com', 'app.example.com:8443', '*.example.org']);
    expect(originAllowed(list, 'https://shop.example.com')).toBe(true);
    expect(originAllowed(list, 'http://shop.example.com:3000')).toBe(true);
    expect(originAllowed(list, 'https://evil-shop.example.com')).toBe(false);
    expect(originAllowed(list, 'https://shop.example.com.evil.test')).toBe(false);
    expect(originAllowed(list, 'https://app.example.com:8443')).toBe(true);
    expect(originAllowed(list, 'https://app.example.com')).toBe(false);
    expect(originAllowed(list, 'https://a.b.example.org')).toBe(true);
    expect(originAllowed(list, 'https://example.org')).toBe(false);
    expect(originAllowed(list, 'null')).toBe(false);
  });
  it('lets a caller with no Origin in unless the agent requires one', () => {
    expect(originAllowed(auth(['example.com']), undefined)).toBe(true);
    expect(originAllowed(auth(['example.com'], true), undefined)).toBe(false);
  });
});

describe('page cursors', () => {
  it('round-trip an offset and refuse a forged one with a 422 on cursor', () => {
    expect(decodeCursor(encodeCursor(60))).toBe(60);
    expect(decodeCursor(undefined)).toBe(0);
    const error = (() => {
      try {
        decodeCursor('bm90LWEtY3Vyc29y');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).errors?.[0]?.loc).toEqual(['query', 'cursor']);
  });
});

describe('configProblems', () => {
  const system = (name: string, type: string) => ({
    type: 'system',
    name,
    description: '',
    response_timeout_secs: 20,
    disable_interruptions: false,
    force_pre_tool_speech: false,
    params: { system_tool_type: type },
  });

  it('wants each built-in tool under its own name', () => {
    const config = resolveAgentConfig({
      agent: { prompt: { built_in_tools: { end_call: system('end_call', 'skip_turn') } } },
    });
    expect(configProblems(config, [])?.errors?.[0]?.loc).toEqual([
      'body',
      'conversation_config',
      'agent',
      'prompt',
      'built_in_tools',
      'end_call',
      'params',
      'system_tool_type',
    ]);
  });

  it('refuses two tools of one name, workspace tool or built-in', () => {
    const config = resolveAgentConfig({
      agent: {
        prompt: { tool_ids: ['t1', 't2'], built_in_tools: { end_call: system('hang_up', 'end_call') } },
      },
    });
    expect(configProblems(config, [{ name: 'lookup' }, { name: 'lookup' }])?.message).toBe(
      "Two of the agent's tools are called lookup; the LLM tells tools apart by name.",
    );
    expect(configProblems(config, [{ name: 'hang_up' }])?.errors?.[0]?.loc.at(-1)).toBe('name');
    expect(configProblems(config, [{ name: 'lookup' }])).toBeUndefined();
  });
});
