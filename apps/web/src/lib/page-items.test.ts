import { describe, expect, it } from 'vitest';
import { collectPageItems } from './page-items';

describe('collectPageItems', () => {
  it('keeps each item once, the first time it appears, in page order', () => {
    const pages = [{ rows: [{ id: 'a' }, { id: 'b' }] }, { rows: [{ id: 'b', late: true }, { id: 'c' }] }];
    expect(
      collectPageItems(
        pages,
        (page) => page.rows,
        (row) => row.id,
      ),
    ).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
  });

  it('is empty before the first page', () => {
    expect(
      collectPageItems<{ rows: string[] }, string>(
        undefined,
        (page) => page.rows,
        (row) => row,
      ),
    ).toEqual([]);
  });
});
