import { describe, expect, it } from 'vitest';
import { listBuiltRoutes } from '../lib/app-paths';
import { listPageRoutes, pageLoaders } from './page-loaders';

describe('page loaders', () => {
  it('has a loader for exactly the built paths, so every built page reaches the router', () => {
    const built = listBuiltRoutes().map((entry) => entry.path);
    expect(Object.keys(pageLoaders).sort()).toEqual([...built].sort());
    expect(listPageRoutes().map((entry) => entry.path)).toEqual(built);
  });

  // Imports every page from a cold start (4–5 s on a loaded 2-core machine): a longer bound than the default.
  it('loads a component for every built page', { timeout: 20_000 }, async () => {
    for (const entry of listPageRoutes()) {
      expect(typeof (await entry.page()).default).toBe('function');
    }
  });
});
