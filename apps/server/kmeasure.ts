import { synthesizeWithKokoro, loadKokoro } from './src/providers/tts/engines/kokoro-engine';
const texts = ['Yes.', 'We open at nine', 'We open at nine in the morning.', 'This is sentence number one of a long answer about our shop, and it goes on.'];
await loadKokoro();
for (let r = 0; r < 3; r++) for (const text of texts) {
  const t = performance.now();
  const out = await synthesizeWithKokoro({ text, voice: 'af_heart' } as never);
  console.log(r, text.length, (performance.now() - t).toFixed(0), 'ms', (out.samples.length / out.sampleRate).toFixed(2), 's audio');
}
