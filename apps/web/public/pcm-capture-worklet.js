// The microphone's samples for live dictation (issue 20 item 6), handed to the page in blocks of 2,048
// frames (~43 ms at 48 kHz), each channel a copy. Served from the app's own origin: the CSP's script-src
// allows worklets from 'self' only.
class PcmCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.blocks = [];
    this.frames = 0;
  }

  process(inputs) {
    const input = inputs[0];
    if (input && input.length > 0 && input[0].length > 0) {
      this.blocks.push(input.map((channel) => channel.slice()));
      this.frames += input[0].length;
      if (this.frames >= 2048) {
        const channels = this.blocks[0].map((_, c) => {
          const joined = new Float32Array(this.frames);
          let at = 0;
          for (const block of this.blocks) {
            const channel = block[c] ?? block[0];
            joined.set(channel, at);
            at += channel.length;
          }
          return joined;
        });
        this.port.postMessage(
          channels,
          channels.map((channel) => channel.buffer),
        );
        this.blocks = [];
        this.frames = 0;
      }
    }
    return true;
  }
}

registerProcessor('pcm-capture', PcmCapture);
