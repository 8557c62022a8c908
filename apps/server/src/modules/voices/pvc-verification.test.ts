import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { ModelUnavailableError } from '../../platform/models/model-store';
import { hearCaptcha } from './pvc-verification.service';

const pcm = { sampleRate: 16_000, channels: 1, samples: new Int16Array(16_000) };

describe('hearCaptcha', () => {
  it('answers what the speech-to-text provider heard', async () => {
    await expect(hearCaptcha({ transcribe: async () => 'the quick brown fox' }, pcm)).resolves.toBe(
      'the quick brown fox',
    );
  });

  it('turns an unavailable speech-to-text model into a 503 with the reason, not a 500', async () => {
    const stt = {
      transcribe: async () => {
        throw new ModelUnavailableError('silero-vad', 'silero_vad.onnx: checksum mismatch');
      },
    };
    const refused = await hearCaptcha(stt, pcm).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'service_unavailable',
      status: 503,
      message:
        'The captcha cannot be checked on this server now: its speech-to-text model silero-vad is unavailable: silero_vad.onnx: checksum mismatch.',
    });
  });

  it('lets any other failure through as it was', async () => {
    const boom = new Error('engine crashed');
    await expect(hearCaptcha({ transcribe: async () => Promise.reject(boom) }, pcm)).rejects.toBe(boom);
  });
});
