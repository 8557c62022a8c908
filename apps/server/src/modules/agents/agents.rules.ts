import {
  AGENT_SYSTEM_TOOLS,
  type ResolvedAgentPlatformSettings,
  type ResolvedConversationalConfig,
  type ToolConfig,
} from '@parla/contracts';
import { AppError } from '../../platform/errors';

/*
 * The agents' rules that need no database: where an error points, the page cursor, the built-in tools'
 * consistency, the allowed origins. Unit-tested in agents.rules.test.ts.
 */

/** A 422 `invalid_request` at a path of the body, shaped like the validator's own errors. */
export function invalidAt(path: readonly (string | number)[], message: string): AppError {
  return new AppError('invalid_request', message, {
    errors: [{ loc: ['body', ...path], msg: message, type: 'value_error' }],
  });
}

/** A page cursor: the offset of the next page, opaque to clients. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

/** The offset a cursor names; a cursor we did not make is a 422 on `cursor`. */
export function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) {
    const message = 'The cursor is not one this server gave; start again without it.';
    throw new AppError('invalid_request', message, {
      errors: [{ loc: ['query', 'cursor'], msg: message, type: 'value_error' }],
    });
  }
  return Number(match[1]);
}

/**
 * The rules of a resolved config no schema can state alone: each built-in tool sits under its own name
 * (`built_in_tools.end_call` holds an `end_call` tool), and the names the LLM sees — the tools' and the
 * built-in tools' — are distinct (two functions of one name cannot be told apart in a tool call).
 */
export function configProblems(
  config: ResolvedConversationalConfig,
  tools: readonly Pick<ToolConfig, 'name'>[],
): AppError | undefined {
  const builtIn = config.agent.prompt.built_in_tools;
  const names = new Map<string, string>();
  for (const [index, tool] of tools.entries()) {
    if (names.has(tool.name))
      return invalidAt(
        ['conversation_config', 'agent', 'prompt', 'tool_ids', index],
        `Two of the agent's tools are called ${tool.name}; the LLM tells tools apart by name.`,
      );
    names.set(tool.name, 'tool');
  }
  for (const key of AGENT_SYSTEM_TOOLS) {
    const tool = builtIn[key];
    if (!tool) continue;
    const path = ['conversation_config', 'agent', 'prompt', 'built_in_tools', key];
    if (tool.params.system_tool_type !== key)
      return invalidAt(
        [...path, 'params', 'system_tool_type'],
        `built_in_tools.${key} holds a ${tool.params.system_tool_type} tool; its system_tool_type must be ${key}.`,
      );
    if (names.has(tool.name))
      return invalidAt(
        [...path, 'name'],
        `Two of the agent's tools are called ${tool.name}; the LLM tells tools apart by name.`,
      );
    names.set(tool.name, key);
  }
  return undefined;
}

/** The transfer targets of the agent's `transfer_to_agent` tool. */
export function transferTargets(config: ResolvedConversationalConfig): string[] {
  const params = config.agent.prompt.built_in_tools.transfer_to_agent?.params;
  return params?.system_tool_type === 'transfer_to_agent' ? params.transfers.map((t) => t.agent_id) : [];
}

/** The host (and port, when not the scheme's default) of an `Origin` header; undefined if it is not one. */
export function hostOfOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.host.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a page at `origin` may open the agent (its widget config, its conversation): any origin when the
 * allowlist is empty; otherwise one whose host is listed (a listed port must match; `*.example.com`
 * allows the subdomains of example.com). No Origin header (a server, a native app) passes unless
 * `require_origin_header` is set.
 */
export function originAllowed(
  auth: ResolvedAgentPlatformSettings['auth'],
  origin: string | undefined,
): boolean {
  if (auth.allowlist.length === 0) return true;
  if (!origin) return !auth.require_origin_header;
  const host = hostOfOrigin(origin);
  if (!host) return false;
  const bare = host.replace(/:\d+$/, '');
  return auth.allowlist.some(({ hostname }) => {
    if (hostname.startsWith('*.')) {
      const parent = hostname.slice(2).replace(/:\d+$/, '');
      return bare.endsWith(`.${parent}`);
    }
    return hostname.includes(':') ? host === hostname : bare === hostname;
  });
}
