import { spreadWords, wordSpans } from './engine-synthesis';
import type {
  EngineSynthesisRequest,
  EngineSynthesisResult,
  SynthesisOptions,
  TtsProvider,
} from './tts-provider';
import { ExternalTtsFailure } from './tts-provider';

/** OpenAI's pcm response format: 24 kHz, signed 16-bit little-endian, mono. */
const OPENAI_PCM_RATE = 24_000;

/**
 * An OpenAI-compatible speech server (`POST {url}/v1/audio/speech`, response_format pcm) as a provider.
 * It reports no word times, so they are spread over the audio (timing `estimated`). Its API takes text
 * only: the request's phoneme spans (pronunciation rules, `<phoneme>` tags) have no way in, and their
 * words are spoken as written (docs/areas/speech.md "Pronunciation rules").
 */
export class OpenAiCompatibleProvider implements TtsProvider {
  readonly size = 4;

  constructor(
    private readonly options: { url: string; apiKey: string | undefined; model: string; timeoutMs: number },
  ) {}

  async synthesize(
    request: EngineSynthesisRequest,
    { signal }: SynthesisOptions = {},
  ): Promise<EngineSynthesisResult> {
    let response: Response;
    try {
      response = await fetch(`${this.options.url}/v1/audio/speech`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.options.model,
          voice: request.voice,
          input: request.text,
          response_format: 'pcm',
          speed: request.rate ?? 1,
        }),
        signal: signal
          ? AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)])
          : AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new ExternalTtsFailure('The external speech server could not be reached.', { cause: error });
    }
    if (!response.ok) {
      throw new ExternalTtsFailure(`The external speech server answered ${response.status}.`);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    const samples = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 2));
    const totalMs = (samples.length / OPENAI_PCM_RATE) * 1000;
    return {
      sampleRate: OPENAI_PCM_RATE,
      samples: new Int16Array(samples),
      words: spreadWords(wordSpans(request.text), 0, totalMs),
      timing: 'estimated',
    };
  }
}

/** Sends `external` requests to the external server (when there is one) and the rest to the engines. */
export function routeProviders(engines: TtsProvider, external: TtsProvider | undefined): TtsProvider {
  return {
    size: engines.size,
    synthesize: (request, options) => {
      if (request.engine !== 'external') return engines.synthesize(request, options);
      if (!external) throw new ExternalTtsFailure('No external speech server is configured.');
      return external.synthesize(request, options);
    },
  };
}
