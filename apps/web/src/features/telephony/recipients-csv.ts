import { E164, MAX_BATCH_RECIPIENTS } from '@parla/contracts';

/*
 * A batch's recipients from a CSV file (issue 28, batch calling): a header row naming a `phone_number`
 * column (E.164); every other column is a dynamic variable of that recipient's conversation (`{{name}}` in
 * the agent's prompt or first message). Quoted fields ("Smith, Ada") and CRLF line ends are read.
 */

export interface CsvRecipient {
  phone_number: string;
  conversation_initiation_client_data?: { dynamic_variables: Record<string, string> };
}

export type CsvReading = { recipients: CsvRecipient[]; problems: string[] };

function splitCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((cell) => cell.trim() !== ''));
}

/** The recipients of a CSV, and what is wrong with it (each problem names its line). */
export function readRecipientsCsv(text: string): CsvReading {
  const rows = splitCsv(text.replace(/^\uFEFF/, ''));
  const header = rows[0]?.map((cell) => cell.trim());
  if (!header) return { recipients: [], problems: ['The file is empty.'] };
  const phoneColumn = header.findIndex((name) => name.toLowerCase() === 'phone_number');
  if (phoneColumn < 0)
    return { recipients: [], problems: ['The first row must name a phone_number column.'] };
  const problems: string[] = [];
  const recipients: CsvRecipient[] = [];
  const seen = new Set<string>();
  rows.slice(1).forEach((cells, index) => {
    const line = index + 2;
    const phone = (cells[phoneColumn] ?? '').replace(/[\s().-]/g, '');
    if (!E164.test(phone)) {
      problems.push(
        `Line ${line}: "${cells[phoneColumn] ?? ''}" is not a number in E.164 form (+14155550123).`,
      );
      return;
    }
    if (seen.has(phone)) {
      problems.push(`Line ${line}: ${phone} is listed twice.`);
      return;
    }
    seen.add(phone);
    const variables: Record<string, string> = {};
    header.forEach((name, column) => {
      if (column !== phoneColumn && name) variables[name] = (cells[column] ?? '').trim();
    });
    recipients.push({
      phone_number: phone,
      ...(Object.keys(variables).length > 0
        ? { conversation_initiation_client_data: { dynamic_variables: variables } }
        : {}),
    });
  });
  if (recipients.length > MAX_BATCH_RECIPIENTS)
    problems.push(`A batch calls at most ${MAX_BATCH_RECIPIENTS.toLocaleString('en-US')} numbers.`);
  if (recipients.length === 0 && problems.length === 0) problems.push('The file names no recipient.');
  return { recipients, problems };
}
