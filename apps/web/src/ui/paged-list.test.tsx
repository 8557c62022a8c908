import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PagedList, type PagedQuery } from './paged-list';

afterEach(cleanup);

const query = (state: Partial<PagedQuery> = {}): PagedQuery => ({
  isPending: false,
  isSuccess: true,
  isError: false,
  data: { pages: [] },
  error: null,
  refetch: vi.fn(),
  hasNextPage: false,
  isFetchingNextPage: false,
  isFetchNextPageError: false,
  isPlaceholderData: false,
  fetchNextPage: vi.fn(),
  ...state,
});

function renderList(pages: PagedQuery, empty = false) {
  return render(
    <PagedList
      pages={pages}
      empty={empty}
      loading={{ label: 'Loading things', rows: 3, lineWidths: ['w-2/3', 'w-1/3'] }}
      emptyState={<h2>Nothing yet</h2>}
    >
      {!empty && <ul aria-label="Things" />}
    </PagedList>,
  );
}

describe('<PagedList>', () => {
  it('shows busy skeleton rows while the first page loads', () => {
    renderList(query({ isPending: true, isSuccess: false, data: undefined }), true);
    const loading = screen.getByRole('list', { name: 'Loading things' });
    expect(loading.getAttribute('aria-busy')).toBe('true');
    expect(within(loading).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByText('Nothing yet')).toBeNull();
  });

  it('offers to try the first page again when it failed', () => {
    const pages = query({ isError: true, isSuccess: false, data: undefined, error: new Error('x') });
    renderList(pages, true);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(pages.refetch).toHaveBeenCalledOnce();
  });

  it('says so when loaded and empty', () => {
    renderList(query(), true);
    expect(screen.getByRole('heading', { name: 'Nothing yet' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('loads the next page, retries it when it failed, and offers no "more" of the previous filters', () => {
    const pages = query({ hasNextPage: true });
    renderList(pages);
    expect(screen.getByRole('list', { name: 'Things' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(pages.fetchNextPage).toHaveBeenCalledOnce();
    cleanup();

    const failed = query({
      hasNextPage: true,
      isError: true,
      isFetchNextPageError: true,
      error: new Error('x'),
    });
    renderList(failed);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(failed.fetchNextPage).toHaveBeenCalledOnce();
    expect(failed.refetch).not.toHaveBeenCalled();
    cleanup();

    renderList(query({ hasNextPage: true, isPlaceholderData: true }));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});
