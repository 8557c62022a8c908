import { z } from 'zod';
import { ResourceAccessInfo, SystemToolParams } from './agents';
import { defineRoute } from './routes';

/*
 * Agent tools and workspace secrets (issue 28 item 4; history/voices §7 "tools, secrets"). The shapes follow
 * `conversationalAi.tools` and `conversationalAi.secrets` of `@elevenlabs/elevenlabs-js` (`ToolRequestModel`,
 * `WebhookToolConfigInput`, `WebhookToolApiSchemaConfigInput`, `ClientToolConfigInput`,
 * `LiteralJsonSchemaProperty`, `ObjectJsonSchemaPropertyInput`, `ToolResponseModel`,
 * `PostWorkspaceSecretRequest`, `ConvAiWorkspaceStoredSecretConfig`). A secret's value is write-only: no
 * response carries it; a webhook tool names it by id in a header (`{secret_id}`) and the server puts the
 * value in at call time.
 */

const ToolName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'A tool name is 1 to 64 letters, digits, _ and - characters.');
const ToolDescription = z
  .string()
  .trim()
  .min(1, 'Describe when the agent should use the tool.')
  .max(2000, 'A tool description is at most 2,000 characters.');
const ParamName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'A parameter name is 1 to 64 letters, digits, _ . and - characters.');
const ParamDescription = z.string().max(1000, 'A parameter description is at most 1,000 characters.');

/**
 * A value the LLM, a dynamic variable or a constant gives (`LiteralJsonSchemaProperty`): one source only,
 * as the public API requires (description: the LLM; dynamic_variable; constant_value; is_system_provided).
 */
export const LiteralParam = z
  .object({
    type: z.enum(['boolean', 'string', 'integer', 'number']),
    description: ParamDescription.optional(),
    enum: z.array(z.string().max(200)).min(1).max(100).nullable().optional(),
    dynamic_variable: z.string().max(64).optional(),
    constant_value: z.union([z.string().max(10_000), z.number(), z.boolean()]).optional(),
    is_system_provided: z.boolean().optional(),
  })
  .superRefine((p, ctx) => {
    const sources = [
      p.description ? 'description' : null,
      p.dynamic_variable ? 'dynamic_variable' : null,
      p.constant_value !== undefined ? 'constant_value' : null,
      p.is_system_provided ? 'is_system_provided' : null,
    ].filter(Boolean);
    if (sources.length > 1)
      ctx.addIssue({
        code: 'custom',
        message: `A parameter takes its value from one source only, not ${sources.join(' and ')}.`,
      });
    if (sources.length === 0)
      ctx.addIssue({
        code: 'custom',
        message:
          'Describe the parameter for the LLM (description), or give it a dynamic_variable or a constant_value.',
      });
  });
export type LiteralParam = z.infer<typeof LiteralParam>;

export type ObjectParam = {
  type?: 'object';
  description?: string;
  required?: string[];
  properties?: Record<string, LiteralParam | ObjectParam | ArrayParam>;
};
export type ArrayParam = {
  type?: 'array';
  description?: string;
  items: LiteralParam | ObjectParam | ArrayParam;
};

/** An object of parameters (`ObjectJsonSchemaPropertyInput`): JSON Schema's properties and required. */
export const ObjectParam: z.ZodType<ObjectParam> = z.lazy(() =>
  z
    .object({
      type: z.literal('object').optional(),
      description: ParamDescription.optional(),
      required: z.array(ParamName).max(100).optional(),
      properties: z
        .record(ParamName, AnyParam)
        .refine((r) => Object.keys(r).length <= 100, 'At most 100 parameters in one object.')
        .optional(),
    })
    .superRefine((o, ctx) => {
      for (const name of o.required ?? []) {
        if (!o.properties || !(name in o.properties))
          ctx.addIssue({
            code: 'custom',
            path: ['required'],
            message: `"${name}" is required but not described.`,
          });
      }
    }),
);
export const ArrayParam: z.ZodType<ArrayParam> = z.lazy(() =>
  z.object({
    type: z.literal('array').optional(),
    description: ParamDescription.optional(),
    items: AnyParam,
  }),
);
const AnyParam: z.ZodType<LiteralParam | ObjectParam | ArrayParam> = z.lazy(() =>
  z.union([LiteralParam, ArrayParam, ObjectParam]),
);

/** A header value: plain text, a workspace secret by id, or a dynamic variable by name. */
export const ToolHeaderValue = z.union([
  z
    .string()
    .max(2000, 'A header value is at most 2,000 characters.')
    .regex(/^[\t\x20-\x7e]*$/, 'A header value is visible ASCII characters on one line.'),
  z.object({ secret_id: z.string().trim().min(1).max(64) }),
  z.object({ variable_name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'Name a dynamic variable.') }),
]);
export type ToolHeaderValue = z.infer<typeof ToolHeaderValue>;

export const WEBHOOK_TOOL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** `WebhookToolApiSchemaConfigInput`: where and how the server calls, and what the LLM fills in. */
export const WebhookApiSchema = z
  .object({
    /** May hold `{name}` placeholders, each described in path_params_schema. Checked by the server too. */
    url: z
      .string()
      .trim()
      .min(1, 'Enter the address to call.')
      .max(2048, 'A URL is at most 2,048 characters.'),
    method: z.enum(WEBHOOK_TOOL_METHODS).default('GET'),
    request_headers: z
      .record(
        z
          .string()
          .regex(
            /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/,
            'A header name is 1 to 100 letters, digits and - _ . characters.',
          ),
        ToolHeaderValue,
      )
      .refine((h) => Object.keys(h).length <= 20, 'At most 20 headers.')
      .default({}),
    path_params_schema: z.record(ParamName, LiteralParam).default({}),
    query_params_schema: z
      .object({
        properties: z.record(ParamName, LiteralParam),
        required: z.array(ParamName).optional(),
      })
      .nullable()
      .optional(),
    request_body_schema: ObjectParam.nullable().optional(),
    content_type: z
      .enum(['application/json', 'application/x-www-form-urlencoded'])
      .default('application/json'),
  })
  .superRefine((s, ctx) => {
    const placeholders = [...s.url.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] as string);
    for (const name of placeholders) {
      if (!(name in s.path_params_schema))
        ctx.addIssue({
          code: 'custom',
          path: ['path_params_schema'],
          message: `The URL's {${name}} needs a path parameter of that name.`,
        });
    }
    for (const name of Object.keys(s.path_params_schema)) {
      if (!placeholders.includes(name))
        ctx.addIssue({
          code: 'custom',
          path: ['path_params_schema', name],
          message: `The path parameter ${name} has no {${name}} in the URL.`,
        });
    }
    if (s.request_body_schema && (s.method === 'GET' || s.method === 'DELETE'))
      ctx.addIssue({
        code: 'custom',
        path: ['request_body_schema'],
        message: `A ${s.method} request has no body: use POST, PUT or PATCH, or query parameters.`,
      });
  });
export type WebhookApiSchema = z.output<typeof WebhookApiSchema>;

const toolCommon = {
  name: ToolName,
  description: ToolDescription,
  disable_interruptions: z.boolean().default(false),
  force_pre_tool_speech: z.boolean().default(false),
};

/** `WebhookToolConfigInput`: the server calls an HTTP endpoint and gives the LLM its answer. */
export const WebhookToolConfig = z.object({
  type: z.literal('webhook'),
  ...toolCommon,
  /** 5 to 300 seconds (the public API's bounds). */
  response_timeout_secs: z
    .number()
    .int()
    .min(5, 'The response timeout is 5 to 300 seconds.')
    .max(300, 'The response timeout is 5 to 300 seconds.')
    .default(20),
  api_schema: WebhookApiSchema,
});

/** `ClientToolConfigInput`: sent to the client as `client_tool_call`; its result awaited if it expects one. */
export const ClientToolConfig = z
  .object({
    type: z.literal('client'),
    ...toolCommon,
    /** 1 to 120 seconds, or -1 to wait as long as the conversation lasts (only with expects_response). */
    response_timeout_secs: z
      .number()
      .int()
      .refine((n) => n === -1 || (n >= 1 && n <= 120), 'The response timeout is 1 to 120 seconds, or -1.')
      .default(20),
    parameters: ObjectParam.nullable().optional(),
    expects_response: z.boolean().default(false),
  })
  .refine((t) => t.response_timeout_secs !== -1 || t.expects_response, {
    path: ['response_timeout_secs'],
    message: 'A timeout of -1 needs expects_response: true.',
  });

/** A system tool kept as a workspace tool (`SystemToolConfigInput`). */
export const SystemToolStandalone = z.object({
  type: z.literal('system'),
  name: ToolName,
  description: z.string().max(2000).default(''),
  response_timeout_secs: z.number().int().min(1).max(120).default(20),
  disable_interruptions: z.boolean().default(false),
  force_pre_tool_speech: z.boolean().default(false),
  params: SystemToolParams,
});

export const ToolConfig = z.discriminatedUnion(
  'type',
  [WebhookToolConfig, ClientToolConfig, SystemToolStandalone],
  { error: 'A tool is of type webhook, client or system (MCP tools are not served by Parla).' },
);
export type ToolConfig = z.output<typeof ToolConfig>;
export type WebhookToolConfig = z.output<typeof WebhookToolConfig>;
export type ClientToolConfig = z.output<typeof ClientToolConfig>;

/** `ToolRequestModel` (create and update alike: the whole tool). */
export const ToolRequest = z.object({ tool_config: ToolConfig });
export type ToolRequest = z.output<typeof ToolRequest>;

/** `ToolResponseModel`. */
export const ToolResponse = z
  .object({
    id: z.string(),
    tool_config: z.custom<ToolConfig>(),
    access_info: ResourceAccessInfo,
    usage_stats: z.object({ total_calls: z.number().int(), avg_latency_secs: z.number() }),
  })
  .meta({ id: 'AgentTool' });
export type ToolResponse = z.infer<typeof ToolResponse>;

const ToolParams = z.object({ tool_id: z.string().min(1).max(64) });

export const ListToolsQuery = z.object({
  search: z.string().trim().max(200).optional(),
  page_size: z.coerce
    .number()
    .int()
    .min(1, 'page_size is 1 to 100.')
    .max(100, 'page_size is 1 to 100.')
    .default(30),
  types: z
    .union([z.enum(['webhook', 'client', 'system']), z.array(z.enum(['webhook', 'client', 'system']))])
    .optional(),
  sort_direction: z.enum(['asc', 'desc']).default('desc'),
  sort_by: z.enum(['name', 'created_at']).default('created_at'),
  used_by_agent_id: z.string().max(64).optional(),
  cursor: z.string().max(200).optional(),
});
export type ListToolsQuery = z.output<typeof ListToolsQuery>;

export const listToolsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/tools',
  summary: 'The workspace’s agent tools',
  tags: ['agents'],
  query: ListToolsQuery,
  response: z.object({
    tools: z.array(ToolResponse),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
  }),
});

export const createToolRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/tools',
  summary: 'Create an agent tool (webhook, client or system)',
  tags: ['agents'],
  body: ToolRequest,
  response: ToolResponse,
});

export const getToolRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/tools/:tool_id',
  summary: 'An agent tool',
  tags: ['agents'],
  params: ToolParams,
  response: ToolResponse,
});

export const updateToolRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/convai/tools/:tool_id',
  summary: 'Replace an agent tool’s configuration',
  tags: ['agents'],
  params: ToolParams,
  body: ToolRequest,
  response: ToolResponse,
});

export const deleteToolRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/tools/:tool_id',
  summary: 'Delete an agent tool (refused while agents use it, unless force=true)',
  tags: ['agents'],
  params: ToolParams,
  query: z.object({
    force: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
  }),
  response: z.object({ status: z.literal('ok') }),
});

// ---------------------------------------------------------------------------------------------------------
// Workspace secrets

const SecretName = z
  .string()
  .trim()
  .min(1, 'Give the secret a name.')
  .max(100, 'A secret name is at most 100 characters.');
const SecretValue = z
  .string()
  .min(1, 'The secret has no value.')
  .max(10_000, 'A secret is at most 10,000 characters.')
  .regex(/^[^\r\n\0]*$/, 'A secret is one line (it goes into a header).');

export const CreateSecretRequest = z.object({
  type: z.literal('new').optional(),
  name: SecretName,
  value: SecretValue,
});
export const UpdateSecretRequest = z.object({
  type: z.literal('update').optional(),
  name: SecretName,
  value: SecretValue,
});
export type UpdateSecretRequest = z.output<typeof UpdateSecretRequest>;

const Dependent = z.object({
  type: z.literal('available'),
  id: z.string(),
  name: z.string(),
  created_at_unix_secs: z.number().int(),
  access_level: z.enum(['admin', 'editor', 'commenter', 'viewer']),
});

/** `ConvAiWorkspaceStoredSecretConfig`: never the value. */
export const StoredSecret = z
  .object({
    type: z.literal('stored'),
    secret_id: z.string(),
    name: z.string(),
    used_by: z.object({
      tools: z.array(Dependent),
      agents: z.array(Dependent),
      others: z.array(z.string()),
      phone_numbers: z.array(z.unknown()),
    }),
  })
  .meta({ id: 'WorkspaceSecret' });
export type StoredSecret = z.infer<typeof StoredSecret>;

const SecretParams = z.object({ secret_id: z.string().min(1).max(64) });
const SecretSaved = z.object({ type: z.literal('stored'), secret_id: z.string(), name: z.string() });

export const listSecretsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/secrets',
  summary: 'The workspace’s secrets (names and uses, never values)',
  tags: ['agents'],
  query: z.object({
    page_size: z.coerce.number().int().min(1).max(100).default(100),
    search: z.string().trim().max(200).optional(),
    cursor: z.string().max(200).optional(),
  }),
  response: z.object({ secrets: z.array(StoredSecret), next_cursor: z.string().nullable() }),
});

export const createSecretRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/secrets',
  summary: 'Store a secret for tools to send (encrypted; never shown again)',
  tags: ['agents'],
  body: CreateSecretRequest,
  response: SecretSaved,
});

export const getSecretRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/secrets/:secret_id',
  summary: 'A secret’s name and uses (never its value)',
  tags: ['agents'],
  params: SecretParams,
  response: StoredSecret,
});

export const updateSecretRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/convai/secrets/:secret_id',
  summary: 'Rename a secret and replace its value',
  tags: ['agents'],
  params: SecretParams,
  body: UpdateSecretRequest,
  response: SecretSaved,
});

export const deleteSecretRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/secrets/:secret_id',
  summary: 'Delete a secret (refused while a tool uses it)',
  tags: ['agents'],
  params: SecretParams,
  response: z.object({ status: z.literal('ok') }),
});
