import { SPOKEN_LANGUAGES } from '@parla/contracts';
import { beforeAll, describe, expect, it } from 'vitest';

/** "The weather is nice today." in each spoken language, in its ordinary script. */
const SENTENCES: Record<string, string> = {
  en: 'The weather is nice today.',
  es: 'El tiempo es agradable hoy.',
  fr: "Il fait beau aujourd'hui.",
  de: 'Das Wetter ist heute schön.',
  it: 'Oggi il tempo è bello.',
  pt: 'O tempo está bom hoje.',
  pl: 'Dzisiaj jest ładna pogoda.',
  nl: 'Het weer is mooi vandaag.',
  sv: 'Vädret är fint idag.',
  da: 'Vejret er dejligt i dag.',
  fi: 'Sää on tänään kaunis.',
  no: 'Været er fint i dag.',
  cs: 'Dnes je hezké počasí.',
  sk: 'Dnes je pekné počasie.',
  hu: 'Ma szép az idő.',
  ro: 'Vremea este frumoasă astăzi.',
  bg: 'Времето днес е хубаво.',
  hr: 'Vrijeme je danas lijepo.',
  el: 'Ο καιρός είναι ωραίος σήμερα.',
  tr: 'Bugün hava güzel.',
  ru: 'Сегодня хорошая погода.',
  uk: 'Сьогодні гарна погода.',
  hi: 'आज मौसम अच्छा है।',
  ta: 'இன்று வானிலை நன்றாக இருக்கிறது.',
  id: 'Cuaca hari ini bagus.',
  ms: 'Cuaca hari ini baik.',
  vi: 'Hôm nay thời tiết đẹp.',
  zh: '今天天气很好。',
  ja: 'きょうは てんきが いいです。',
  ar: 'الطقس جميل اليوم.',
};

interface Worker {
  set_voice(voice: string): void;
  synthesize(
    text: string,
    callback: (samples?: Int16Array, events?: { type: string; id?: string }[]) => boolean,
  ): void;
}

let worker: Worker;
beforeAll(async () => {
  // The module itself, not the engine children: only its phoneme events say which language was spoken.
  const createModule = (await import('@echogarden/espeak-ng-emscripten')).default;
  const module = (await createModule()) as { eSpeakNGWorker: new () => Worker };
  worker = new module.eSpeakNGWorker();
});

/** The phonemes eSpeak speaks for a text, and the seconds of audio. */
function speak(voice: string, text: string): { phonemes: string[]; seconds: number } {
  worker.set_voice(voice);
  const phonemes: string[] = [];
  let samples = 0;
  worker.synthesize(text, (chunk, events) => {
    samples += chunk?.length ?? 0;
    for (const event of events ?? []) if (event.type === 'phoneme' && event.id) phonemes.push(event.id);
    return false;
  });
  return { phonemes, seconds: samples / 22050 };
}

describe('the languages Parla lists are really spoken (issue 18 item 4)', () => {
  it.each(SPOKEN_LANGUAGES.map((l) => [l.name, l] as const))('%s', (_, language) => {
    const sentence = SENTENCES[language.language_id];
    expect(sentence, `a sentence for ${language.language_id}`).toBeDefined();
    const { phonemes, seconds } = speak(`${language.espeak}+f3`, sentence as string);
    expect(seconds).toBeGreaterThan(0.6);
    expect(phonemes.length).toBeGreaterThan(8);
    // eSpeak marks a switch to another language's voice (it reads what it cannot as English): none here.
    expect(phonemes.filter((p) => /^\(\w+\)$/.test(p))).toEqual([]);
  });

  it('reads Japanese kana, not kanji: a kanji text is read as "Chinese letter" in English', () => {
    expect(speak('ja', '今日は天気がいいです。').phonemes).toContain('(en)');
    expect(speak('ja', SENTENCES.ja as string).phonemes).not.toContain('(en)');
  });

  it('speaks German with German phonemes, and English with English ones', () => {
    const german = speak('de', SENTENCES.de as string).phonemes.join(' ');
    const english = speak('en-us', SENTENCES.de as string).phonemes.join(' ');
    expect(german).toContain('ʃ'); // "schön"
    expect(german).not.toEqual(english);
  });
});
