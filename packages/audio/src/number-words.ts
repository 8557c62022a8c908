/** English number words for text normalisation. */

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: [bigint, string][] = [
  [1_000_000_000_000n, 'trillion'],
  [1_000_000_000n, 'billion'],
  [1_000_000n, 'million'],
  [1_000n, 'thousand'],
];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n] as string;
  const tens = TENS[Math.floor(n / 10)] as string;
  return n % 10 === 0 ? tens : `${tens}-${ONES[n % 10]}`;
}

function belowThousand(n: number): string {
  if (n < 100) return belowHundred(n);
  const rest = n % 100;
  return `${ONES[Math.floor(n / 100)]} hundred${rest ? ` ${belowHundred(rest)}` : ''}`;
}

/** 1234 → "one thousand two hundred thirty-four"; works up to the quadrillions, and for negatives. */
export function cardinal(value: number | bigint): string {
  let n = BigInt(value);
  if (n < 0n) return `minus ${cardinal(-n)}`;
  if (n < 1000n) return belowThousand(Number(n));
  const parts: string[] = [];
  for (const [size, name] of SCALES) {
    if (n >= size) {
      parts.push(`${cardinal(n / size)} ${name}`);
      n %= size;
    }
  }
  if (n > 0n) parts.push(belowThousand(Number(n)));
  return parts.join(' ');
}

const ORDINAL_WORDS: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

/** 21 → "twenty-first", 100 → "one hundredth". */
export function ordinal(value: number): string {
  const words = cardinal(value);
  const match = words.match(/([a-z]+)$/);
  const last = match?.[1] ?? '';
  const head = words.slice(0, words.length - last.length);
  if (ORDINAL_WORDS[last]) return head + ORDINAL_WORDS[last];
  if (last.endsWith('y')) return `${head}${last.slice(0, -1)}ieth`;
  return `${words}th`;
}

/** 1999 → "nineteen ninety-nine", 2005 → "two thousand five", 2024 → "twenty twenty-four", 1900 → "nineteen hundred". */
export function year(value: number): string {
  if (value < 1000 || value > 2999) return cardinal(value);
  const high = Math.floor(value / 100);
  const low = value % 100;
  if (value >= 2000 && value < 2010) return cardinal(value);
  if (low === 0) return value % 1000 === 0 ? cardinal(value) : `${cardinal(high)} hundred`;
  return `${cardinal(high)} ${low < 10 ? `oh ${ONES[low]}` : belowHundred(low)}`;
}

/** "3.14" → "three point one four" (digits after the point one by one). */
export function decimal(text: string): string {
  const [whole = '0', fraction] = text.replace(/,/g, '').split('.');
  const head = whole.startsWith('-')
    ? `minus ${cardinal(BigInt(whole.slice(1) || '0'))}`
    : cardinal(BigInt(whole || '0'));
  if (!fraction) return head;
  return `${head} point ${[...fraction].map((d) => ONES[Number(d)]).join(' ')}`;
}
