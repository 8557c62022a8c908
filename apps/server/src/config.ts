import os from 'node:os';
import path from 'node:path';
import { STT_LANGUAGES } from '@parla/contracts';
import { z } from 'zod';

/** The process roles (`--role=`): HTTP API, job worker, or both in one process. */
export const Role = z.enum(['api', 'worker', 'all']);
export type Role = z.infer<typeof Role>;

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * Every environment variable the server reads, with its default. This is the only reader of
 * `process.env` (STYLE.md rule 7); `.env.example` and the README's configuration table mirror it.
 */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: int(0, 65535).default(8080),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: int(1, 100).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Trust X-Forwarded-* from a reverse proxy: `true`, or a comma-separated list of proxy addresses/CIDRs. */
  TRUST_PROXY: z.string().default('false'),
  /** Signs access tokens; unset = a random key made once and kept in the database (shared by all processes). */
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Send mail through this SMTP server (smtp:// or smtps://, credentials in the URL); unset = local outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Parla <no-reply@localhost>'),
  WEB_DIST_DIR: z.string().optional(),
  BODY_LIMIT_BYTES: int(1024, 1024 * 1024 * 1024).default(1024 * 1024),
  ENGINE_POOL_SIZE: int(1, 64).default(Math.max(1, Math.min(4, os.cpus().length))),
  ENGINE_TIMEOUT_MS: int(100, 600_000).default(30_000),
  /** A running generation's lease on its reserved credits: refunded this long after its process died. */
  GENERATION_LEASE_SECONDS: int(1, 3600).default(30),
  /** The longest a realtime socket (text-to-speech input streaming, realtime transcription) stays open. */
  REALTIME_MAX_SECONDS: int(1, 24 * 3600).default(3600),
  /** A realtime transcription session that receives no message for this long is closed. */
  REALTIME_IDLE_SECONDS: int(1, 3600).default(60),
  /** An OpenAI-compatible speech server (`POST {url}/v1/audio/speech`) behind the model parla_external_v1. */
  TTS_OPENAI_URL: z.url('must be a URL').optional(),
  TTS_OPENAI_API_KEY: z.string().optional(),
  TTS_OPENAI_MODEL: z.string().min(1).default('tts-1'),
  /**
   * An OpenAI-compatible transcription server (`POST {url}/v1/audio/transcriptions`, e.g. a Whisper
   * server) behind the speech-to-text model parla_stt_external_v1: the languages the built-in English
   * model does not know.
   */
  STT_SERVER_URL: z.url('must be a URL').optional(),
  STT_SERVER_API_KEY: z.string().optional(),
  STT_SERVER_MODEL: z.string().min(1).default('whisper-1'),
  /** The languages it serves, ISO 639-1, comma-separated (default: all 57 of the speech-to-text list). */
  STT_SERVER_LANGUAGES: z.string().optional(),
  /**
   * The LLM behind conversational agents (issue 28): `embedded` (the model store's GGUF in a child
   * process), `openai` (LLM_OPENAI_URL), `none`. Unset: openai when LLM_OPENAI_URL is set, else embedded
   * when its model is in the store, else none (agents answer in knowledge-base mode).
   */
  LLM_PROVIDER: z.enum(['embedded', 'openai', 'none']).optional(),
  /** An OpenAI-compatible chat server's API base, `/v1` included (Ollama: http://127.0.0.1:11434/v1). */
  LLM_OPENAI_URL: z.url('must be a URL').optional(),
  LLM_OPENAI_API_KEY: z.string().optional(),
  /** The model name that server expects (required with LLM_OPENAI_URL). */
  LLM_OPENAI_MODEL: z.string().min(1).optional(),
  /** The context window in tokens: what the embedded model allocates, or what the server's model holds. */
  LLM_CONTEXT_TOKENS: int(512, 1_048_576).optional(),
  /**
   * Threads the embedded model computes with. One by default: llama.cpp's threads wait for each other by
   * spinning, and on a machine whose cores are busy (the engine children, other work) two threads gave 1.0
   * token/s where one gave 10.9 (bench/llm.bench.ts, load ~15 on 2 cores).
   */
  LLM_THREADS: int(1, 64).default(1),
  /** The most an LLM may stay silent: before its answer starts (queued included) and between two pieces. */
  LLM_TIMEOUT_MS: int(1000, 600_000).default(30_000),
  /**
   * The embedding model the knowledge base computes passage vectors with (issue 28 item 3), on an
   * OpenAI-compatible server (`POST {url}/embeddings`): LLM_EMBEDDING_URL, else LLM_OPENAI_URL. Unset: no
   * vectors, retrieval is full-text search alone.
   */
  LLM_EMBEDDING_MODEL: z.string().min(1).optional(),
  LLM_EMBEDDING_URL: z.url('must be a URL').optional(),
  /** Sent to the embedding server; LLM_OPENAI_API_KEY when unset. */
  LLM_EMBEDDING_API_KEY: z.string().optional(),
  /** The least cosine similarity a passage no query word matches needs to be retrieved by meaning alone. */
  LLM_EMBEDDING_MIN_SIMILARITY: z.coerce.number().min(-1).max(1).default(0.3),
  /**
   * Dubbing's translation (issue 29, providers/translation): Apertium on this machine for the pairs it
   * has, else these servers. `offline` (default) tries Apertium first; `server` tries the servers first.
   */
  TRANSLATION_PREFER: z.enum(['offline', 'server']).default('offline'),
  /** A LibreTranslate server's base URL (`POST {url}/translate`, `GET {url}/languages`). */
  TRANSLATION_LIBRETRANSLATE_URL: z.url('must be a URL').optional(),
  /** Sent as `api_key` in the body (LibreTranslate's way); unset for a server without keys. */
  TRANSLATION_LIBRETRANSLATE_API_KEY: z.string().optional(),
  /**
   * An OpenAI-compatible chat server's API base, `/v1` included (`POST {url}/chat/completions`) that
   * translates. Unset: LLM_OPENAI_URL's server, when one is set.
   */
  TRANSLATION_OPENAI_URL: z.url('must be a URL').optional(),
  /** Sent as `Authorization: Bearer …`; LLM_OPENAI_API_KEY when TRANSLATION_OPENAI_URL is unset. */
  TRANSLATION_OPENAI_API_KEY: z.string().optional(),
  /** The chat model that translates; LLM_OPENAI_MODEL when unset. */
  TRANSLATION_OPENAI_MODEL: z.string().min(1).optional(),
  /** The most one translation request (or one Apertium run) may take. */
  TRANSLATION_TIMEOUT_MS: int(1000, 3_600_000).default(120_000),
  /** history/voices §6: the `feedback_enabled` feature config — rating generations (true or false). */
  FEEDBACK_ENABLED: z.enum(['true', 'false']).default('true'),
  /** history/voices §2: the `tts_video_generation` feature config — share videos of generations (true or false). */
  TTS_VIDEO_GENERATION: z.enum(['true', 'false']).default('true'),
  /**
   * Who takes payments: `test` (the built-in test-mode checkout), `stripe`, or `none` (no payments: the
   * "isolated environment" of accounts §4). Unset: stripe when STRIPE_SECRET_KEY is set, else test.
   */
  BILLING_PROVIDER: z.enum(['test', 'stripe', 'none']).optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** Verifies the signatures of Stripe's webhook events (`whsec_…`). */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Another Stripe API host (for tests against a local server), e.g. http://127.0.0.1:12111. */
  STRIPE_API_URL: z.url('must be a URL').optional(),
  /** How often the worker closes ended billing periods and refreshes credits (the renewal job). */
  BILLING_RENEWAL_INTERVAL_MS: int(1000, 86_400_000).default(60_000),
  /** Webhooks may call private and loopback addresses (10.x, 192.168.x, 127.x, ::1, …): for tests and closed networks. */
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false'),
  /** The waits before each retry of a failed webhook delivery, in seconds, comma-separated. */
  WEBHOOK_RETRY_DELAYS_SECONDS: z
    .string()
    .regex(
      /^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?){0,19}\s*$/,
      'must be up to 20 numbers of seconds, comma-separated',
    )
    .default('30,120,600,3600,21600'),
  /** A webhook is switched off after this many deliveries in a row failed. */
  WEBHOOK_AUTO_DISABLE_AFTER: int(1, 1000).default(10),
  /** The time limit of one delivery attempt. */
  WEBHOOK_TIMEOUT_MS: int(100, 60_000).default(10_000),
  /** Encrypts the webhooks' signing secrets at rest; unset = a random key made once and kept in the database. */
  WEBHOOK_SECRETS_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Agents' webhook tools may call private and loopback addresses (10.x, 192.168.x, 127.x, ::1, …): tests, closed networks. */
  AGENT_TOOL_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false'),
  /** Encrypts agents' workspace secrets at rest; unset = a random key made once and kept in the database. */
  AGENT_SECRETS_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Twilio's REST API, where agents' outbound phone calls are placed (a local stand-in in tests). */
  TWILIO_API_URL: z.url('must be a URL').default('https://api.twilio.com'),
  /**
   * Hosts `cloud_storage_url`/`source_url` may name for speech to text: comma-separated names, `*.domain`
   * for its subdomains, or `*` for any public host. Unset: URLs are refused (only uploads).
   */
  STT_URL_ALLOWED_HOSTS: z.string().default(''),
  /** Let those URLs reach private, loopback and link-local addresses too (true or false; tests, closed networks). */
  STT_URL_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  /** The longest a URL's download may take, in ms. */
  STT_URL_TIMEOUT_MS: int(1000, 3_600_000).default(300_000),
  /**
   * Hosts whose pages the knowledge base may fetch although they are at private, loopback or link-local
   * addresses (an intranet wiki): comma-separated names or `*.domain`. Public hosts need no listing.
   */
  KB_URL_PRIVATE_HOSTS: z.string().default(''),
  /** The longest a knowledge-base page may take to fetch, in ms. */
  KB_URL_TIMEOUT_MS: int(500, 120_000).default(15_000),
  JOB_CONCURRENCY: int(1, 64).default(2),
  JOB_LEASE_SECONDS: int(1, 3600).default(30),
  JOB_POLL_INTERVAL_MS: int(50, 60_000).default(1000),
  SHUTDOWN_TIMEOUT_MS: int(0, 600_000).default(10_000),
});

export interface Config {
  env: 'development' | 'test' | 'production';
  role: Role;
  host: string;
  port: number;
  /** PUBLIC_URL without its trailing slash (required in production). */
  publicUrl: string;
  /** PUBLIC_URL was left unset and publicUrl is the guess `http://localhost:PORT`. */
  publicUrlGuessed: boolean;
  /**
   * Cookies the server sets are `Secure` (sent back only over TLS): PUBLIC_URL is https, whatever the case
   * of its scheme.
   */
  secureCookies: boolean;
  dataDir: string;
  database: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string; poolSize: number };
  log: { level: string };
  /** Fastify's trustProxy: false (default), true, or the proxy addresses to trust. */
  trustProxy: boolean | string[];
  /** AUTH_SECRET, or undefined to use the key kept in the database. */
  authSecret: string | undefined;
  /** SMTP when a URL is set, else the outbox table (readable at /dev/mailbox outside production). */
  mail: { from: string; smtpUrl: string | undefined };
  webDistDir: string | undefined;
  bodyLimitBytes: number;
  engines: { poolSize: number; timeoutMs: number };
  /** The realtime sockets' bounds, in ms: any socket's whole life; a transcription session's silence. */
  realtime: { maxSocketMs: number; sttIdleMs: number };
  /** How long a running generation's reservation outlives the last renewal by its process, in ms. */
  generationLeaseMs: number;
  /** The OpenAI-compatible speech server, when one is configured. */
  externalTts: { url: string; apiKey: string | undefined; model: string } | undefined;
  /** The OpenAI-compatible transcription server, when one is configured. */
  externalStt: { url: string; apiKey: string | undefined; model: string; languages: string[] } | undefined;
  /**
   * The LLM provider's choice and settings (issue 28). `provider` undefined: chosen at start (openai when a
   * server is set, else embedded when its model is in the store, else none).
   */
  llm: {
    provider: 'embedded' | 'openai' | 'none' | undefined;
    openai: { url: string; apiKey: string | undefined; model: string } | undefined;
    /** LLM_CONTEXT_TOKENS when set; each adapter has its own default. */
    contextTokens: number | undefined;
    threads: number;
    timeoutMs: number;
    /** The embedding model and its server (LLM_EMBEDDING_*), when one is configured. */
    embedding: { url: string; apiKey: string | undefined; model: string; minSimilarity: number } | undefined;
  };
  /** Dubbing's translation servers and their order against Apertium (issue 29). */
  translation: {
    prefer: 'offline' | 'server';
    libretranslate: { url: string; apiKey: string | undefined } | undefined;
    /** The chat model that translates: TRANSLATION_OPENAI_*, else the agents' LLM_OPENAI_* server. */
    openai: { url: string; apiKey: string | undefined; model: string } | undefined;
    timeoutMs: number;
  };
  /** The `feedback_enabled` feature config (history/voices §4, §6). */
  feedbackEnabled: boolean;
  /** The `tts_video_generation` feature config: share videos of history items (history/voices §2, §4). */
  ttsVideoGeneration: boolean;
  /** Where speech to text may fetch `cloud_storage_url`/`source_url` from (issue 19). */
  sttUrls: { allowedHosts: string[]; allowPrivate: boolean; timeoutMs: number };
  jobs: { concurrency: number; leaseSeconds: number; pollIntervalMs: number };
  /** Where knowledge-base URL documents may come from (issue 28 item 3). */
  knowledgeBase: { privateHosts: string[]; urlTimeoutMs: number };
  /** Workspace webhooks' delivery (issue 19 item 5, docs/decisions/0011-webhook-delivery.md). */
  webhooks: {
    allowPrivateUrls: boolean;
    retryDelaysMs: number[];
    autoDisableAfter: number;
    timeoutMs: number;
    /** WEBHOOK_SECRETS_KEY, or undefined to use the key kept in the database. */
    secretsKey: string | undefined;
  };
  /** Conversational agents' tools and secrets (issue 28 item 4). */
  agents: {
    /** AGENT_TOOL_ALLOW_PRIVATE_URLS: webhook tools may name private addresses. */
    allowPrivateToolUrls: boolean;
    /** AGENT_SECRETS_KEY, or undefined to use the key kept in the database. */
    secretsKey: string | undefined;
    /** TWILIO_API_URL without its trailing slash: where outbound phone calls are placed. */
    twilioApiUrl: string;
  };
  shutdownTimeoutMs: number;
  billing: {
    provider: 'test' | 'stripe' | 'none';
    stripe: { secretKey: string; webhookSecret: string | undefined; apiUrl: string | undefined } | undefined;
    renewalIntervalMs: number;
  };
  /** Exit after running migrations (`--migrate-only`). */
  migrateOnly: boolean;
}

/** `false`, `true`, or a comma-separated list of proxy addresses/CIDRs (e.g. `loopback,10.0.0.0/8`). */
function parseTrustProxy(value: string): boolean | string[] {
  const v = value.trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  return v
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}

/** The chat model dubbing translates with: its own server, else the agents' (LLM_OPENAI_*). */
function translationModel(e: z.infer<typeof EnvSchema>): Config['translation']['openai'] {
  if (e.TRANSLATION_OPENAI_URL) {
    const model = e.TRANSLATION_OPENAI_MODEL ?? e.LLM_OPENAI_MODEL;
    if (!model) return undefined; // refused by loadConfig
    return { url: e.TRANSLATION_OPENAI_URL.replace(/\/+$/, ''), apiKey: e.TRANSLATION_OPENAI_API_KEY, model };
  }
  if (e.LLM_OPENAI_URL && e.LLM_OPENAI_MODEL)
    return {
      url: e.LLM_OPENAI_URL.replace(/\/+$/, ''),
      apiKey: e.LLM_OPENAI_API_KEY,
      model: e.TRANSLATION_OPENAI_MODEL ?? e.LLM_OPENAI_MODEL,
    };
  return undefined;
}

/** Thrown when the environment or the command line is invalid; the message lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment and argv once at boot; throws ConfigError listing every problem. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  argv: string[] = process.argv.slice(2),
): Config {
  const problems: string[] = [];
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
  }

  let role: Role = 'all';
  let migrateOnly = false;
  for (const arg of argv) {
    if (arg.startsWith('--role=')) {
      const value = Role.safeParse(arg.slice('--role='.length));
      if (value.success) role = value.data;
      else problems.push(`--role: must be one of api, worker, all (got "${arg.slice('--role='.length)}")`);
    } else if (arg === '--migrate-only') {
      migrateOnly = true;
    } else {
      problems.push(`unknown argument "${arg}" (expected --role=api|worker|all or --migrate-only)`);
    }
  }

  if (parsed.success && role !== 'all' && !parsed.data.DATABASE_URL) {
    problems.push(
      `--role=${role}: separate api and worker processes share a PostgreSQL server; set DATABASE_URL (the embedded PGlite database belongs to one process)`,
    );
  }
  if (parsed.success && parsed.data.NODE_ENV === 'production' && !parsed.data.PUBLIC_URL) {
    // Mailed links (verification, invitations, password resets) and Stripe's way back leave the browser:
    // they can only name the server by this URL, and a guessed localhost sends people nowhere.
    problems.push(
      'PUBLIC_URL: required in production — the address people reach the server at (e.g. https://parla.example.com), used in mailed links',
    );
  }
  if (parsed.success && parsed.data.BILLING_PROVIDER === 'stripe' && !parsed.data.STRIPE_SECRET_KEY) {
    problems.push('BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY');
  }
  if (parsed.success && parsed.data.LLM_OPENAI_URL && !parsed.data.LLM_OPENAI_MODEL) {
    problems.push(
      'LLM_OPENAI_URL needs LLM_OPENAI_MODEL: the model name that server expects (e.g. qwen2.5:7b)',
    );
  }
  if (
    parsed.success &&
    parsed.data.LLM_EMBEDDING_MODEL &&
    !parsed.data.LLM_EMBEDDING_URL &&
    !parsed.data.LLM_OPENAI_URL
  ) {
    problems.push(
      'LLM_EMBEDDING_MODEL needs LLM_EMBEDDING_URL or LLM_OPENAI_URL: the OpenAI-compatible server that computes the embeddings',
    );
  }
  if (parsed.success && parsed.data.LLM_EMBEDDING_URL && !parsed.data.LLM_EMBEDDING_MODEL) {
    problems.push('LLM_EMBEDDING_URL needs LLM_EMBEDDING_MODEL: the embedding model that server expects');
  }
  if (parsed.success && parsed.data.LLM_PROVIDER === 'openai' && !parsed.data.LLM_OPENAI_URL) {
    problems.push('LLM_PROVIDER=openai needs LLM_OPENAI_URL');
  }
  if (
    parsed.success &&
    parsed.data.TRANSLATION_OPENAI_URL &&
    !parsed.data.TRANSLATION_OPENAI_MODEL &&
    !parsed.data.LLM_OPENAI_MODEL
  ) {
    problems.push(
      'TRANSLATION_OPENAI_URL needs TRANSLATION_OPENAI_MODEL: the chat model that server translates with (e.g. qwen2.5:7b)',
    );
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);

  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    role,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    publicUrlGuessed: !e.PUBLIC_URL,
    secureCookies: new URL(publicUrl).protocol === 'https:',
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dir: path.join(dataDir, 'db') },
    log: { level: e.LOG_LEVEL },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    authSecret: e.AUTH_SECRET,
    mail: { from: e.MAIL_FROM, smtpUrl: e.SMTP_URL },
    webDistDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : undefined,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    engines: { poolSize: e.ENGINE_POOL_SIZE, timeoutMs: e.ENGINE_TIMEOUT_MS },
    realtime: { maxSocketMs: e.REALTIME_MAX_SECONDS * 1000, sttIdleMs: e.REALTIME_IDLE_SECONDS * 1000 },
    generationLeaseMs: e.GENERATION_LEASE_SECONDS * 1000,
    feedbackEnabled: e.FEEDBACK_ENABLED === 'true',
    ttsVideoGeneration: e.TTS_VIDEO_GENERATION === 'true',
    externalTts: e.TTS_OPENAI_URL
      ? { url: e.TTS_OPENAI_URL.replace(/\/$/, ''), apiKey: e.TTS_OPENAI_API_KEY, model: e.TTS_OPENAI_MODEL }
      : undefined,
    knowledgeBase: {
      privateHosts: e.KB_URL_PRIVATE_HOSTS.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      urlTimeoutMs: e.KB_URL_TIMEOUT_MS,
    },
    llm: {
      provider: e.LLM_PROVIDER,
      openai:
        e.LLM_OPENAI_URL && e.LLM_OPENAI_MODEL
          ? {
              url: e.LLM_OPENAI_URL.replace(/\/$/, ''),
              apiKey: e.LLM_OPENAI_API_KEY,
              model: e.LLM_OPENAI_MODEL,
            }
          : undefined,
      contextTokens: e.LLM_CONTEXT_TOKENS,
      threads: e.LLM_THREADS,
      timeoutMs: e.LLM_TIMEOUT_MS,
      embedding:
        e.LLM_EMBEDDING_MODEL && (e.LLM_EMBEDDING_URL ?? e.LLM_OPENAI_URL)
          ? {
              url: (e.LLM_EMBEDDING_URL ?? e.LLM_OPENAI_URL ?? '').replace(/\/$/, ''),
              apiKey: e.LLM_EMBEDDING_API_KEY ?? e.LLM_OPENAI_API_KEY,
              model: e.LLM_EMBEDDING_MODEL,
              minSimilarity: e.LLM_EMBEDDING_MIN_SIMILARITY,
            }
          : undefined,
    },
    translation: {
      prefer: e.TRANSLATION_PREFER,
      libretranslate: e.TRANSLATION_LIBRETRANSLATE_URL
        ? {
            url: e.TRANSLATION_LIBRETRANSLATE_URL.replace(/\/+$/, ''),
            apiKey: e.TRANSLATION_LIBRETRANSLATE_API_KEY,
          }
        : undefined,
      openai: translationModel(e),
      timeoutMs: e.TRANSLATION_TIMEOUT_MS,
    },
    sttUrls: {
      allowedHosts: e.STT_URL_ALLOWED_HOSTS.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      allowPrivate: e.STT_URL_ALLOW_PRIVATE === 'true',
      timeoutMs: e.STT_URL_TIMEOUT_MS,
    },
    externalStt: e.STT_SERVER_URL
      ? {
          url: e.STT_SERVER_URL.replace(/\/$/, ''),
          apiKey: e.STT_SERVER_API_KEY,
          model: e.STT_SERVER_MODEL,
          languages: e.STT_SERVER_LANGUAGES
            ? e.STT_SERVER_LANGUAGES.split(',')
                .map((l) => l.trim().toLowerCase())
                .filter(Boolean)
            : STT_LANGUAGES.map((l) => l.iso1),
        }
      : undefined,
    jobs: {
      concurrency: e.JOB_CONCURRENCY,
      leaseSeconds: e.JOB_LEASE_SECONDS,
      pollIntervalMs: e.JOB_POLL_INTERVAL_MS,
    },
    webhooks: {
      allowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS === 'true',
      retryDelaysMs: e.WEBHOOK_RETRY_DELAYS_SECONDS.split(',').map((v) =>
        Math.round(Number(v.trim()) * 1000),
      ),
      autoDisableAfter: e.WEBHOOK_AUTO_DISABLE_AFTER,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      secretsKey: e.WEBHOOK_SECRETS_KEY,
    },
    agents: {
      allowPrivateToolUrls: e.AGENT_TOOL_ALLOW_PRIVATE_URLS === 'true',
      secretsKey: e.AGENT_SECRETS_KEY,
      twilioApiUrl: e.TWILIO_API_URL.replace(/\/+$/, ''),
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    billing: {
      provider: e.BILLING_PROVIDER ?? (e.STRIPE_SECRET_KEY ? 'stripe' : 'test'),
      stripe: e.STRIPE_SECRET_KEY
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL }
        : undefined,
      renewalIntervalMs: e.BILLING_RENEWAL_INTERVAL_MS,
    },
    migrateOnly,
  };
}
