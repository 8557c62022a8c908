import { inject } from 'vitest';
import { useChildBundle } from '../providers/engines/child-entry';

// The integration and stress legs start engine children and program hosts from the child entry bundled
// once for the run (global-setup.ts), not from the TypeScript source under tsx.
useChildBundle(inject('engineChildBundle'));
