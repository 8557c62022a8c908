import { describe, expect, it } from 'vitest';
import { detectLanguage } from './language-detection';

describe('detectLanguage (issue 18 item 4)', () => {
  it.each([
    ['de', 'Das Wetter ist heute schön, und wir gehen am Nachmittag im Park spazieren.'],
    ['fr', "Il fait beau aujourd'hui, nous allons nous promener dans le parc cet après-midi."],
    ['es', 'Hoy hace buen tiempo y vamos a pasear por el parque esta tarde con los niños.'],
    ['en', 'The weather is nice today, and we are going for a walk in the park this afternoon.'],
    ['it', 'Oggi il tempo è bello e questo pomeriggio andiamo a fare una passeggiata nel parco.'],
    ['uk', 'Сьогодні гарна погода, і вдень ми підемо гуляти в парк.'],
    ['ru', 'Сегодня хорошая погода, и днём мы пойдём гулять в парк.'],
    ['hr', 'Danas je lijepo vrijeme i poslijepodne idemo u šetnju parkom.'],
    ['zh', '今天天气很好，下午我们去公园散步。'],
    ['ja', '今日は天気がいいので、午後は公園を散歩します。'],
  ])('names %s', (language, text) => {
    expect(detectLanguage(text)).toEqual({ language, spoken: true });
  });

  it('names a language no voice speaks, as not spoken', () => {
    expect(detectLanguage('오늘은 날씨가 좋아서 오후에 공원을 산책할 거예요.')).toEqual({
      language: 'ko',
      spoken: false,
    });
  });

  it.each([
    ['a short text', 'Hallo Welt'],
    ['a greeting', 'Guten Morgen!'],
    ['numbers and symbols', '12345 678 90 — 3.14 % $ 2026-11-27 !!!'],
    ['an empty text', ''],
    ['few ideographs', '你好'],
  ])('says unknown for %s', (_, text) => {
    expect(detectLanguage(text)).toEqual({ language: null, spoken: false });
  });

  it('says unknown when two languages read the text equally well (Danish or Norwegian)', () => {
    expect(
      detectLanguage('Vejret er dejligt i dag, og vi skal gå en tur i parken i eftermiddag.').language,
    ).toBeNull();
  });
});
