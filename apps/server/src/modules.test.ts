import { SHAREABLE_RESOURCE_TYPES } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { MODULES, SHAREABLE_KINDS } from './modules';
import { AppError } from './platform/errors';
import { defineModule, type ShareableKind, shareableKindsOf } from './platform/module';

describe('shareable kinds', () => {
  it('has one module for every resource type the contracts let members share', () => {
    expect([...SHAREABLE_KINDS.keys()].sort()).toEqual([...SHAREABLE_RESOURCE_TYPES].sort());
    const owners = MODULES.filter((m) => (m.shareable ?? []).length > 0).map((m) => m.name);
    expect(owners.sort()).toEqual(['history', 'speech-to-text', 'voices']);
  });

  it('refuses two modules declaring the same kind', () => {
    const kind: ShareableKind = {
      kind: 'voice',
      find: async () => undefined,
      notFound: (id) => new AppError('voice_not_found', id),
    };
    const one = defineModule({ name: 'one', shareable: [kind] });
    const two = defineModule({ name: 'two', shareable: [kind] });
    expect(() => shareableKindsOf([one, two])).toThrow(/two modules declare the shareable kind voice/);
  });
});
