/*
 * `use_profanity_filter`: swear words in transcripts and translations are masked with asterisks (first
 * letter kept). A word list, not a classifier: it catches the common words of the languages below and
 * nothing subtler.
 */

const WORDS = [
  // en
  'fuck',
  'fucking',
  'fucked',
  'shit',
  'bitch',
  'bastard',
  'asshole',
  'dick',
  'cunt',
  'bullshit',
  'motherfucker',
  'damn',
  // es
  'mierda',
  'joder',
  'puta',
  'puto',
  'cabrón',
  'cabron',
  'coño',
  'gilipollas',
  'pendejo',
  'carajo',
  // fr
  'merde',
  'putain',
  'connard',
  'salope',
  'enculé',
  // de
  'scheiße',
  'scheisse',
  'arschloch',
  'fick',
  'ficken',
  // it
  'cazzo',
  'stronzo',
  'vaffanculo',
  'merda',
  // pt
  'porra',
  'caralho',
  'foda',
  'merda',
];

const PATTERN = new RegExp(`(?<![\\p{L}])(${WORDS.join('|')})(?![\\p{L}])`, 'giu');

/** The text with each listed word masked (its first letter kept: "f***"). */
export function maskProfanity(text: string): string {
  return text.replace(PATTERN, (word) => word[0] + '*'.repeat(Math.max(1, [...word].length - 1)));
}
