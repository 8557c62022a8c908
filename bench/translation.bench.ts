/**
 * Dubbing's offline translation (issue 29, providers/translation): Apertium through its adapter, as a dub
 * calls it — one batch per target language, one run of `apertium` per hop, in the program host.
 * - throughput: 1,000 dialogue lines from English to Spanish (direct) and to Portuguese, French and Italian
 *   (through Spanish), median of 3, in texts per second;
 * - a 60-second dub's segments (20 lines) to Spanish: target ≤ 1 s, a small part of the dub's 60 s budget.
 * Baseline in the same run: one short text alone, what starting Apertium costs per hop on this machine.
 */
import { programHost } from '../apps/server/src/platform/program-host';
import { ApertiumTranslation } from '../apps/server/src/providers/translation/apertium-translation';

const SENTENCES = [
  'Hey, are you coming to the party tonight?',
  "I don't know. I have to finish this report before my boss gets back.",
  "Come on, it's Friday! You can do it tomorrow.",
  "Fine, but only if you promise we'll leave before midnight.",
  'Look out! The car is coming straight at us!',
  'Where did you put the keys?',
  'They are on the table next to the window.',
  'We should call your mother before it gets too late.',
  'The train leaves at seven, so we have to hurry.',
  'Thank you very much for your help yesterday.',
];
/** Dialogue lines, each a little different so no two batches are the same text. */
const lines = (n: number) => Array.from({ length: n }, (_, i) => `${SENTENCES[i % SENTENCES.length]} (${i})`);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function run(): Promise<void> {
  const apertium = new ApertiumTranslation({ timeoutMs: 120_000 });
  if (!apertium.route('en', 'es')) {
    console.log('Apertium (apertium-eng-spa) is not installed: scripts/install-system-deps.sh runtime');
    process.exitCode = 1;
    return;
  }
  const time = async (texts: string[], target: string) => {
    const started = performance.now();
    const out = await apertium.translate({ texts, source: 'en', target });
    if (out.texts.length !== texts.length) throw new Error('the count did not come back');
    return performance.now() - started;
  };
  await time(['Hello.'], 'es'); // the program host and the page cache warmed
  const single: number[] = [];
  for (let i = 0; i < 3; i++) single.push(await time(['Hello, my friend.'], 'es'));
  const baseline = median(single);
  console.log(`baseline: one text en>es ${baseline.toFixed(0)} ms (median of 3)`);
  const batch = lines(1000);
  for (const target of ['es', 'pt', 'fr', 'it']) {
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) runs.push(await time(batch, target));
    const ms = median(runs);
    const route = apertium.route('en', target)?.languages.join('>');
    console.log(
      `${route}: 1000 lines ${ms.toFixed(0)} ms = ${((1000 / ms) * 1000).toFixed(0)} texts/s (${(ms / baseline).toFixed(1)}× one text)`,
    );
  }
  const dub: number[] = [];
  for (let i = 0; i < 3; i++) dub.push(await time(lines(20), 'es'));
  const ms = median(dub);
  console.log(
    `a 60-second dub's 20 segments en>es: ${ms.toFixed(0)} ms (target ≤ 1000 ms) ${ms <= 1000 ? 'PASS' : 'FAIL'}`,
  );
  programHost.stop();
}
