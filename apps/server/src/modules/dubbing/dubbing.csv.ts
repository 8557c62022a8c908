import { AppError } from '../../platform/errors';

/*
 * The manual mode's CSV (`mode=manual` with `csv_file`): one row per segment with the columns
 * `speaker, start_time, end_time, transcription, translation` (a header row first). Times are seconds
 * ("12.5") or clock times ("00:00:12,500" / "00:00:12.500"). The translation is into the dub's target language;
 * an empty one is translated by the job.
 */

/** Splits CSV text into rows of fields (quotes with doubled quotes inside, commas and newlines in quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f.trim() !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f.trim() !== '')) rows.push(row);
  return rows;
}

/** A time field in seconds, or undefined when it is not one. */
export function parseTime(value: string): number | undefined {
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  const m = /^(\d+):(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?$/.exec(v);
  if (!m) return undefined;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number((m[4] ?? '0').padEnd(3, '0')) / 1000;
}

const bad = (line: number, message: string) =>
  new AppError('bad_request', `The CSV's row ${line} is not valid: ${message}`);

/** The segments of a manual dub, with the translations the CSV gives (by segment index) for `target`. */
export function parseSegmentsCsv(text: string, target: string) {
  const rows = parseCsv(text.replace(/^\uFEFF/, ''));
  const header = rows[0]?.map((h) => h.trim().toLowerCase());
  if (!header?.includes('start_time') || !header.includes('end_time'))
    throw new AppError(
      'bad_request',
      'The CSV needs a header row with speaker, start_time, end_time, transcription and translation.',
    );
  const col = (name: string) => header.indexOf(name);
  const segments: {
    speaker: string;
    start: number;
    end: number;
    text: string;
    words: { text: string; start: number; end: number }[];
  }[] = [];
  const translations: Record<string, Record<number, string>> = { [target]: {} };
  for (const [i, row] of rows.slice(1).entries()) {
    const line = i + 2;
    const start = parseTime(row[col('start_time')] ?? '');
    const end = parseTime(row[col('end_time')] ?? '');
    if (start === undefined || end === undefined) throw bad(line, 'start_time and end_time must be times.');
    if (end <= start) throw bad(line, 'end_time must be after start_time.');
    const text = (row[col('transcription')] ?? '').trim();
    const speaker = (row[col('speaker')] ?? '').trim() || 'speaker_0';
    segments.push({ speaker, start, end, text, words: [] });
    const translation = (row[col('translation')] ?? '').trim();
    if (translation) (translations[target] as Record<number, string>)[segments.length - 1] = translation;
  }
  if (segments.length > 5000) throw new AppError('bad_request', 'The CSV has more than 5,000 segments.');
  return { segments, translations };
}
