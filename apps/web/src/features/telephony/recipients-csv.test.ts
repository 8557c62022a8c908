import { describe, expect, it } from 'vitest';
import { readRecipientsCsv } from './recipients-csv';

describe('readRecipientsCsv', () => {
  it('reads numbers and the other columns as dynamic variables, quoted fields and CRLF included', () => {
    const csv = '\uFEFFphone_number,name,note\r\n+14155550100,Ada,"Smith, Ada"\r\n(415) 555-0101 ,Bob,\r\n';
    expect(readRecipientsCsv(csv.replace('(415) 555-0101', '+1 415 555 0101'))).toEqual({
      recipients: [
        {
          phone_number: '+14155550100',
          conversation_initiation_client_data: { dynamic_variables: { name: 'Ada', note: 'Smith, Ada' } },
        },
        {
          phone_number: '+14155550101',
          conversation_initiation_client_data: { dynamic_variables: { name: 'Bob', note: '' } },
        },
      ],
      problems: [],
    });
  });

  it('says what is wrong, by line', () => {
    expect(readRecipientsCsv('number\n+14155550100').problems).toEqual([
      'The first row must name a phone_number column.',
    ]);
    expect(readRecipientsCsv('phone_number\n4155550100\n+14155550100\n+14155550100').problems).toEqual([
      'Line 2: "4155550100" is not a number in E.164 form (+14155550123).',
      'Line 4: +14155550100 is listed twice.',
    ]);
    expect(readRecipientsCsv('').problems).toEqual(['The file is empty.']);
    expect(readRecipientsCsv('phone_number\n').problems).toEqual(['The file names no recipient.']);
  });
});
