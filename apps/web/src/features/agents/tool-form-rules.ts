import {
  type LiteralParam,
  type ObjectParam,
  type ToolConfig,
  ToolRequest,
  type ToolResponse,
  type WEBHOOK_TOOL_METHODS,
} from '@parla/contracts';
import type { z } from 'zod';

/*
 * The tool dialog's form (issue 28 item 4): a webhook tool (method, URL, headers that may name a workspace
 * secret, parameters described for the LLM) or a client tool, as flat rows a form can edit, and the
 * contract's request built from them. The contract checks the request; its messages go under the fields.
 */

export type ToolKind = 'webhook' | 'client';
export type WebhookMethod = (typeof WEBHOOK_TOOL_METHODS)[number];
export type ParamLocation = 'path' | 'query' | 'body';
export type ParamType = LiteralParam['type'];

export interface HeaderRow {
  name: string;
  /**
   * `text`: sent as written; `secret`: a workspace secret's value put in by the server at call time;
   * `variable`: a dynamic variable of the conversation.
   */
  kind: 'text' | 'secret' | 'variable';
  /** The text, the secret's id or the variable's name. */
  value: string;
}

export interface ParamRow {
  name: string;
  /** Where a webhook sends it; a client tool's parameters all go to the client. */
  location: ParamLocation;
  type: ParamType;
  /** What the LLM is told to put there. */
  description: string;
  required: boolean;
  /**
   * A value the LLM does not give (a dynamic variable, a constant, the system's), as a saved tool had it:
   * the form keeps it as it is, since it edits only the parameters the LLM fills in.
   */
  fixed?: Pick<LiteralParam, 'dynamic_variable' | 'constant_value' | 'is_system_provided'>;
}

export interface ToolForm {
  kind: ToolKind;
  name: string;
  description: string;
  method: WebhookMethod;
  url: string;
  headers: HeaderRow[];
  params: ParamRow[];
  /** Seconds, as typed. */
  timeout: string;
  /** A client tool: the agent waits for the client's result. */
  expectsResponse: boolean;
  disableInterruptions: boolean;
  /** Settings of a saved tool the form does not show, sent back as they were. */
  kept?: {
    force_pre_tool_speech?: boolean;
    content_type?: 'application/json' | 'application/x-www-form-urlencoded';
  };
}

export const PARAM_TYPES: readonly ParamType[] = ['string', 'number', 'integer', 'boolean'];

export function emptyToolForm(kind: ToolKind = 'webhook'): ToolForm {
  return {
    kind,
    name: '',
    description: '',
    method: 'GET',
    url: '',
    headers: [],
    params: [],
    timeout: '20',
    expectsResponse: false,
    disableInterruptions: false,
  };
}

function literalOf(row: ParamRow): LiteralParam {
  return row.fixed ? { type: row.type, ...row.fixed } : { type: row.type, description: row.description };
}

/** The source of a parameter the LLM does not fill in, kept as it is. */
function fixedOf(param: Partial<LiteralParam>): ParamRow['fixed'] {
  if (param.dynamic_variable) return { dynamic_variable: param.dynamic_variable };
  if (param.constant_value !== undefined) return { constant_value: param.constant_value };
  if (param.is_system_provided) return { is_system_provided: true };
  return undefined;
}

/** What a kept parameter is filled with, in words ("the dynamic variable customer_id"). */
export function describeFixed(fixed: NonNullable<ParamRow['fixed']>): string {
  if (fixed.dynamic_variable) return `the dynamic variable ${fixed.dynamic_variable}`;
  if (fixed.constant_value !== undefined) return `the constant ${JSON.stringify(fixed.constant_value)}`;
  return 'a value the system provides';
}

function objectOf(rows: readonly ParamRow[]): ObjectParam {
  const properties: Record<string, LiteralParam> = {};
  for (const row of rows) properties[row.name] = literalOf(row);
  const required = rows.filter((row) => row.required).map((row) => row.name);
  return { type: 'object', properties, ...(required.length > 0 && { required }) };
}

/** The request the form stands for (unchecked: `checkToolForm` checks it with the contract). */
export function toolRequestOf(form: ToolForm): z.input<typeof ToolRequest> {
  const common = {
    name: form.name.trim(),
    description: form.description.trim(),
    disable_interruptions: form.disableInterruptions,
    response_timeout_secs: form.timeout.trim() === '' ? Number.NaN : Number(form.timeout),
    ...(form.kept?.force_pre_tool_speech !== undefined && {
      force_pre_tool_speech: form.kept.force_pre_tool_speech,
    }),
  };
  if (form.kind === 'client') {
    return {
      tool_config: {
        type: 'client',
        ...common,
        expects_response: form.expectsResponse,
        parameters: form.params.length > 0 ? objectOf(form.params) : null,
      },
    };
  }
  const at = (location: ParamLocation) => form.params.filter((row) => row.location === location);
  const headers: Record<string, string | { secret_id: string } | { variable_name: string }> = {};
  for (const header of form.headers) {
    headers[header.name.trim()] =
      header.kind === 'secret'
        ? { secret_id: header.value }
        : header.kind === 'variable'
          ? { variable_name: header.value.trim() }
          : header.value;
  }
  const pathParams: Record<string, LiteralParam> = {};
  for (const row of at('path')) pathParams[row.name] = literalOf(row);
  const query = at('query');
  const body = at('body');
  return {
    tool_config: {
      type: 'webhook',
      ...common,
      api_schema: {
        url: form.url.trim(),
        method: form.method,
        request_headers: headers,
        path_params_schema: pathParams,
        query_params_schema:
          query.length > 0
            ? {
                properties: objectOf(query).properties as Record<string, LiteralParam>,
                required: query.filter((row) => row.required).map((row) => row.name),
              }
            : null,
        request_body_schema: body.length > 0 ? objectOf(body) : null,
        ...(form.kept?.content_type && { content_type: form.kept.content_type }),
      },
    },
  };
}

function rowsOf(
  object: { properties?: Record<string, unknown>; required?: string[] } | null | undefined,
  location: ParamLocation,
): ParamRow[] {
  return Object.entries(object?.properties ?? {}).map(([name, raw]) => {
    const param = raw as Partial<LiteralParam>;
    const fixed = fixedOf(param);
    return {
      name,
      location,
      type: PARAM_TYPES.includes(param.type as ParamType) ? (param.type as ParamType) : 'string',
      description: param.description ?? '',
      required: object?.required?.includes(name) ?? false,
      ...(fixed && { fixed }),
    };
  });
}

/** The form of a saved tool (a system tool has no form here: it is switched on in the agent editor). */
export function toolFormOf(tool: ToolResponse): ToolForm {
  const config: ToolConfig = tool.tool_config;
  const base = {
    ...emptyToolForm(),
    name: config.name,
    description: config.description,
    timeout: String(config.response_timeout_secs),
    disableInterruptions: config.disable_interruptions,
    kept: {
      force_pre_tool_speech: config.force_pre_tool_speech,
      ...(config.type === 'webhook' && { content_type: config.api_schema.content_type }),
    },
  };
  if (config.type === 'client')
    return {
      ...base,
      kind: 'client',
      expectsResponse: config.expects_response,
      params: rowsOf(config.parameters, 'body'),
    };
  if (config.type !== 'webhook') return base;
  const schema = config.api_schema;
  return {
    ...base,
    kind: 'webhook',
    method: schema.method,
    url: schema.url,
    headers: Object.entries(schema.request_headers).map(([name, value]) =>
      typeof value === 'string'
        ? { name, kind: 'text' as const, value }
        : 'secret_id' in value
          ? { name, kind: 'secret' as const, value: value.secret_id }
          : { name, kind: 'variable' as const, value: value.variable_name },
    ),
    params: [
      ...rowsOf(
        { properties: schema.path_params_schema, required: Object.keys(schema.path_params_schema) },
        'path',
      ),
      ...rowsOf(schema.query_params_schema, 'query'),
      ...rowsOf(schema.request_body_schema, 'body'),
    ],
  };
}

/** Errors under the form's fields: `name`, `description`, `url`, `timeout`, `headers`, `params`, `form`. */
export type ToolFormErrors = Partial<
  Record<'name' | 'description' | 'url' | 'timeout' | 'headers' | 'params' | 'form', string>
>;

/** The form field that shows an error at a request path (the contract's or the server's 422 `loc`). */
export function toolFieldOf(path: readonly (string | number)[]): keyof ToolFormErrors {
  const [section, key, sub] = path.map(String);
  if (section !== 'tool_config') return 'form';
  if (key === 'name' || key === 'description') return key;
  if (key === 'response_timeout_secs') return 'timeout';
  if (key === 'parameters') return 'params';
  if (key === 'api_schema') {
    if (sub === 'url' || sub === undefined) return 'url';
    if (sub === 'request_headers') return 'headers';
    if (sub === 'method') return 'form';
    return 'params';
  }
  return 'form';
}

/** What the form's own rows get wrong before the contract sees them (names the request keys by). */
function rowProblems(form: ToolForm): ToolFormErrors {
  const errors: ToolFormErrors = {};
  const headerNames = form.headers.map((h) => h.name.trim().toLowerCase());
  if (headerNames.some((name) => name === '')) errors.headers = 'Give each header a name.';
  else if (new Set(headerNames).size !== headerNames.length) errors.headers = 'Name each header once.';
  else if (form.headers.some((h) => h.kind === 'secret' && h.value === ''))
    errors.headers = 'Choose the secret each secret header sends.';
  const paramNames = form.params.map((p) => p.name.trim());
  if (paramNames.some((name) => name === '')) errors.params = 'Give each parameter a name.';
  else if (new Set(paramNames).size !== paramNames.length) errors.params = 'Name each parameter once.';
  else if (form.params.some((p) => !p.fixed && p.description.trim() === ''))
    errors.params = 'Describe each parameter, so the LLM knows what to put there.';
  return errors;
}

/** The form's errors by field: its own rules, then the contract's; empty when the tool can be saved. */
export function checkToolForm(form: ToolForm): ToolFormErrors {
  const errors = rowProblems(form);
  const result = ToolRequest.safeParse(toolRequestOf(form));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = toolFieldOf(issue.path as (string | number)[]);
      errors[field] ??=
        field === 'timeout' && issue.code === 'invalid_type'
          ? 'Enter the timeout in seconds.'
          : issue.message;
    }
  }
  return errors;
}

/** The field errors of a refused save (a 422's `detail.errors[].loc`, `body` first). */
export function readToolFieldErrors(data: unknown): ToolFormErrors {
  const errors: ToolFormErrors = {};
  const detail = (data as { detail?: { errors?: unknown } } | null)?.detail;
  if (!detail || !Array.isArray(detail.errors)) return errors;
  for (const issue of detail.errors as Array<{ loc?: unknown; msg?: unknown }>) {
    if (!Array.isArray(issue.loc) || issue.loc[0] !== 'body' || typeof issue.msg !== 'string') continue;
    errors[toolFieldOf(issue.loc.slice(1))] ??= issue.msg;
  }
  return errors;
}

/** A one-line summary of a tool for its row: "POST api.example.com/orders/{id}" or "Client tool". */
export function describeTool(config: ToolConfig): string {
  if (config.type === 'client')
    return config.expects_response ? 'Client tool · waits for a result' : 'Client tool';
  if (config.type === 'system') return 'System tool';
  return `${config.api_schema.method} ${config.api_schema.url.replace(/^https?:\/\//, '')}`;
}
