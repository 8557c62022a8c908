import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(cleanup);

import { CommitSelect } from './commit-select';

function renderSelect(onCommit: (value: string) => void) {
  render(
    <>
      <label htmlFor="role">Role</label>
      <CommitSelect id="role" value="member" onCommit={onCommit}>
        <option value="member">Member</option>
        <option value="editor">Editor</option>
        <option value="admin">Admin</option>
      </CommitSelect>
    </>,
  );
  return screen.getByLabelText('Role') as HTMLSelectElement;
}

describe('CommitSelect', () => {
  it('commits a pick at once', () => {
    const onCommit = vi.fn();
    const select = renderSelect(onCommit);
    fireEvent.change(select, { target: { value: 'admin' } });
    expect(onCommit).toHaveBeenCalledExactlyOnceWith('admin');
  });

  it('only moves a draft while the arrow keys step through it, and commits once on Enter', () => {
    const onCommit = vi.fn();
    const select = renderSelect(onCommit);
    fireEvent.keyDown(select, { key: 'ArrowDown' });
    fireEvent.change(select, { target: { value: 'editor' } });
    fireEvent.keyUp(select, { key: 'ArrowDown' });
    fireEvent.keyDown(select, { key: 'ArrowDown' });
    fireEvent.change(select, { target: { value: 'admin' } });
    fireEvent.keyUp(select, { key: 'ArrowDown' });
    expect(onCommit).not.toHaveBeenCalled();
    expect(select.value).toBe('admin');
    fireEvent.keyDown(select, { key: 'Enter' });
    expect(onCommit).toHaveBeenCalledExactlyOnceWith('admin');
  });

  it('commits the draft when focus leaves, and nothing when it is back where it was', () => {
    const onCommit = vi.fn();
    const select = renderSelect(onCommit);
    fireEvent.keyDown(select, { key: 'ArrowDown' });
    fireEvent.change(select, { target: { value: 'editor' } });
    fireEvent.blur(select);
    expect(onCommit).toHaveBeenCalledExactlyOnceWith('editor');
    onCommit.mockClear();
    fireEvent.keyDown(select, { key: 'ArrowUp' });
    fireEvent.change(select, { target: { value: 'member' } });
    fireEvent.blur(select);
    expect(onCommit).not.toHaveBeenCalled();
  });
});
