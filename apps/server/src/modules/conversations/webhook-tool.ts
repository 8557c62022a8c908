import http from 'node:http';
import https from 'node:https';
import {
  AddressNotAllowedError,
  checkedLookup,
  resolvePublicAddresses,
} from '../../platform/network-address';
import type { SessionTool } from './session-agent';

/*
 * An agent's webhook tool, called (issue 28 item 4): the language model's arguments go into the URL's
 * `{path}` parameters, the query and the JSON body as the tool describes them, the headers carry the
 * workspace's secrets (put in by the agents module), the address is checked at the call like a webhook
 * delivery's (a private address is refused unless the operator allows it), and the answer is read up to
 * MAX_RESULT_BYTES within the tool's time limit. Never throws: a failure is a result the model is told.
 */

/** What of a tool's answer the model is given. */
export const MAX_RESULT_BYTES = 16 * 1024;

export interface ToolOutcome {
  ok: boolean;
  /** The answer's body (or why there is none), as the model reads it. */
  text: string;
  statusCode: number | null;
}

export async function callWebhookTool(
  tool: SessionTool,
  args: Record<string, unknown>,
  options: {
    allowPrivate: boolean;
    signal?: AbortSignal;
    /** The conversation's dynamic variables, for headers that name one (`{{name}}`). */
    variables?: Record<string, string | number | boolean>;
  },
): Promise<ToolOutcome> {
  const hook = tool.webhook;
  if (!hook) return { ok: false, text: `${tool.name} is not a webhook tool.`, statusCode: null };
  const headers = headersWithVariables(hook.headers, options.variables ?? {});
  if (typeof headers === 'string') return { ok: false, text: headers, statusCode: null };
  const rest: Record<string, unknown> = { ...args };
  // A path parameter may not climb out of its place (`..` resolves against the URL's path).
  for (const name of hook.pathParams) {
    const value = String(rest[name] ?? '');
    if (value === '.' || value === '..')
      return { ok: false, text: `${name} may not be "${value}".`, statusCode: null };
  }
  let path = hook.url.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) => {
    if (!(name in rest)) return whole;
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  let target: URL;
  try {
    target = new URL(path);
  } catch {
    return { ok: false, text: `The tool's URL is not valid: ${hook.url}`, statusCode: null };
  }
  // The model fills parameters, never the host: a placeholder there would send the secrets elsewhere.
  const hostOf = (url: string) => {
    try {
      return new URL(url.replace(/\{[A-Za-z0-9_]+\}/g, 'x')).host;
    } catch {
      return undefined;
    }
  };
  if (target.host !== hostOf(hook.url) || hook.url.slice(0, hook.url.indexOf(target.host)).includes('{'))
    return {
      ok: false,
      text: "The tool's URL names its host with a parameter; this server does not call it.",
      statusCode: null,
    };
  for (const name of hook.queryParams) {
    if (!(name in rest)) continue;
    target.searchParams.set(name, String(rest[name]));
    delete rest[name];
  }
  path = target.toString();
  try {
    await resolvePublicAddresses(target.hostname, options.allowPrivate);
  } catch (error) {
    const text =
      error instanceof AddressNotAllowedError
        ? `The tool's address is private (${error.address}); this server does not call it.`
        : `The tool's host could not be reached: ${(error as Error).message}`;
    return { ok: false, text, statusCode: null };
  }
  const hasBody = hook.method !== 'GET' && hook.method !== 'DELETE';
  const body = hasBody ? JSON.stringify(rest) : undefined;
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<ToolOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: ToolOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const request = client.request(
      target,
      {
        method: hook.method,
        lookup: checkedLookup(options.allowPrivate),
        headers: {
          ...headers,
          accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
          'user-agent': 'Parla-Agents/1.0',
          ...(body !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
            : {}),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size >= MAX_RESULT_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          const text = Buffer.concat(chunks).subarray(0, MAX_RESULT_BYTES).toString('utf8');
          const ok = status >= 200 && status < 300;
          finish({ ok, text: ok ? text : `HTTP ${status}: ${text.slice(0, 500)}`, statusCode: status });
        });
        response.on('error', (error) => finish({ ok: false, text: error.message, statusCode: status }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({
        ok: false,
        text: `The tool did not answer within ${Math.round(hook.timeoutMs / 1000)} s.`,
        statusCode: null,
      });
    }, hook.timeoutMs);
    const onAbort = () => {
      request.destroy();
      finish({ ok: false, text: 'The call was cancelled.', statusCode: null });
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => finish({ ok: false, text: error.message, statusCode: null }));
    if (body !== undefined) request.write(body);
    request.end();
  });
}

/**
 * A header whose value is a dynamic variable (`{"dynamic_variable": "name"}` in the tool's config, kept as
 * `{{name}}`) gets the conversation's value; a missing variable or a value no header may carry (a line
 * break) is the model's error, never a literal `{{name}}` sent to the tool. Answers the headers or why not.
 */
function headersWithVariables(
  headers: Record<string, string>,
  variables: Record<string, string | number | boolean>,
): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const variable = /^\{\{\s*([A-Za-z0-9_]+)\s*\}\}$/.exec(value)?.[1];
    if (variable === undefined) {
      out[name] = value;
      continue;
    }
    if (!(variable in variables))
      return `The header ${name} needs the dynamic variable "${variable}", which this conversation does not have; the tool was not called.`;
    const filled = String(variables[variable]);
    try {
      http.validateHeaderValue(name, filled);
    } catch {
      return `The dynamic variable "${variable}" cannot be sent in the header ${name} (it holds characters a header may not); the tool was not called.`;
    }
    out[name] = filled;
  }
  return out;
}
