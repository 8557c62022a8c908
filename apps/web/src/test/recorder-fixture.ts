import { vi } from 'vitest';

/**
 * A browser whose MediaRecorder records one take of Opus in WebM and whose microphone opens; returns the
 * spy on the microphone track's `stop`.
 */
export function stubRecorder() {
  const stopTrack = vi.fn();
  class FakeRecorder extends EventTarget {
    static isTypeSupported = (type: string) => type === 'audio/webm;codecs=opus';
    state = 'inactive';
    mimeType = 'audio/webm;codecs=opus';
    start() {
      this.state = 'recording';
    }
    stop() {
      this.state = 'inactive';
      const data = Object.assign(new Event('dataavailable'), {
        data: new Blob(['opus'], { type: this.mimeType }),
      });
      this.dispatchEvent(data);
      this.dispatchEvent(new Event('stop'));
    }
  }
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn().mockResolvedValue({ getTracks: () => [{ stop: stopTrack }] }) },
  });
  return { stopTrack };
}

/** A browser that can record, whose user refuses the microphone. */
export function stubMicrophoneDenied() {
  vi.stubGlobal('MediaRecorder', class {});
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn().mockRejectedValue(new DOMException('denied', 'NotAllowedError')) },
  });
}
