/** sherpa-onnx-node ships JavaScript only: the parts speech to text uses (moonshine-engine.ts). */
declare module 'sherpa-onnx-node' {
  export interface OfflineStream {
    acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
  }
  export class OfflineRecognizer {
    constructor(config: unknown);
    createStream(): OfflineStream;
    decode(stream: OfflineStream): void;
    /** `lang` and `timestamps` (token starts, in seconds) are Whisper's (whisper-engine.ts). */
    getResult(stream: OfflineStream): {
      text: string;
      tokens: string[];
      lang?: string;
      timestamps?: number[];
    };
    /** A new configuration for the loaded model (Whisper's language). */
    setConfig(config: unknown): void;
  }
  export class Vad {
    constructor(config: unknown, bufferSizeInSeconds: number);
    acceptWaveform(samples: Float32Array): void;
    isEmpty(): boolean;
    isDetected(): boolean;
    front(): { start: number; samples: Float32Array };
    pop(): void;
    clear(): void;
    flush(): void;
    /** Back to the state of a new detector (segments, model state, buffer): reused by the next session. */
    reset(): void;
  }
  export const version: string;
}
