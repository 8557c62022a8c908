/**
 * Chooses the LLM provider once, at start (issue 28): LLM_PROVIDER, or by default the OpenAI-compatible
 * server when LLM_OPENAI_URL is set, else the embedded model when the model store holds it, else none —
 * a provider that is unavailable and says why, so agents answer in knowledge-base mode.
 */
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { ModelFiles } from '../../platform/models/model-store';
import { EMBEDDED_LLM_MODEL, EmbeddedLlm } from './embedded-llm';
import { LlmError, type LlmEvent, type LlmProvider, type LlmStatus } from './llm-provider';
import { OpenAiEmbeddings } from './openai-embeddings';
import { OpenAiLlm } from './openai-llm';

/** The embedded model's window: enough for a prompt, a few passages and a short history. */
export const EMBEDDED_CONTEXT_TOKENS = 4096;
/** What a server's model is taken to hold when LLM_CONTEXT_TOKENS does not say. */
export const SERVER_CONTEXT_TOKENS = 8192;

/** No LLM: every completion fails as `unavailable`, with the reason its status gives. */
export function unavailableLlm(reason: string): LlmProvider {
  const status: LlmStatus = {
    available: false,
    reason,
    name: 'none',
    model: null,
    toolCalls: false,
    contextTokens: 0,
  };
  return {
    status: () => status,
    // biome-ignore lint/correctness/useYield: it yields nothing, by design
    async *chat(): AsyncGenerator<LlmEvent> {
      throw new LlmError('unavailable', reason);
    },
  };
}

/**
 * The provider with the embedding model of LLM_EMBEDDING_MODEL (issue 28 item 3), whichever adapter chats:
 * vectors come from an OpenAI-compatible server (LLM_EMBEDDING_URL, else LLM_OPENAI_URL).
 */
export function createLlmProvider(
  config: Pick<Config, 'llm'>,
  parts: { logger: Logger; modelFiles: (id: typeof EMBEDDED_LLM_MODEL) => ModelFiles },
): LlmProvider {
  const provider = chatProvider(config, parts);
  const { embedding, timeoutMs } = config.llm;
  if (embedding)
    provider.embeddings = new OpenAiEmbeddings({
      url: embedding.url,
      apiKey: embedding.apiKey,
      model: embedding.model,
      timeoutMs,
    });
  return provider;
}

function chatProvider(
  config: Pick<Config, 'llm'>,
  parts: { logger: Logger; modelFiles: (id: typeof EMBEDDED_LLM_MODEL) => ModelFiles },
): LlmProvider {
  const { llm } = config;
  const provider = llm.provider ?? (llm.openai ? 'openai' : 'embedded');
  if (provider === 'none')
    return unavailableLlm('No language model is configured on this server (LLM_PROVIDER=none).');
  if (provider === 'openai') {
    // config.ts refuses LLM_PROVIDER=openai without a URL and a model.
    if (!llm.openai) return unavailableLlm('LLM_PROVIDER=openai needs LLM_OPENAI_URL and LLM_OPENAI_MODEL.');
    return new OpenAiLlm({
      ...llm.openai,
      timeoutMs: llm.timeoutMs,
      contextTokens: llm.contextTokens ?? SERVER_CONTEXT_TOKENS,
    });
  }
  const files = parts.modelFiles(EMBEDDED_LLM_MODEL);
  if (!files.available)
    return unavailableLlm(
      `No language model is available on this server: the embedded model ${files.reason}. Set LLM_OPENAI_URL to use an OpenAI-compatible server, or fetch the model (npm run admin -- models fetch).`,
    );
  const modelPath = files.files[`${EMBEDDED_LLM_MODEL}/model.gguf`];
  if (!modelPath) return unavailableLlm(`The model store has no GGUF for ${EMBEDDED_LLM_MODEL}.`);
  return new EmbeddedLlm({
    modelPath,
    threads: llm.threads,
    contextTokens: llm.contextTokens ?? EMBEDDED_CONTEXT_TOKENS,
    timeoutMs: llm.timeoutMs,
    logger: parts.logger,
  });
}
