import { parseStoredDialogue } from '@parla/contracts';
import { useCallback, useState } from 'react';
import { readStorage, storageKeys, writeStorage } from '../../lib/storage-keys';
import { type DraftLine, toDraftLines, toStoredLines } from './dialogue-rules';

/**
 * The editor's lines, kept in local storage under `xi:dialogue` (history/voices §3, §9) and read back
 * through the §5 rule: anything unreadable gives an empty dialogue, empty lines are dropped, 50 kept.
 */
export function useStoredDialogue(): [DraftLine[], (lines: DraftLine[]) => void] {
  const [lines, setLines] = useState(() =>
    toDraftLines(parseStoredDialogue(readStorage(storageKeys.dialogue))),
  );
  const update = useCallback((next: DraftLine[]) => {
    setLines(next);
    writeStorage(storageKeys.dialogue, JSON.stringify(toStoredLines(next)));
  }, []);
  return [lines, update];
}
