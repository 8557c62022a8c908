import { configure } from '@testing-library/react';

/*
 * Testing Library's `findBy…` and `waitFor` give up after 1 s by default. A page that loads its lazy
 * route and the session first took longer on the loaded 2-core CI machine (the sidebar's credit meter,
 * 2026-11-28), so every web test waits up to 5 s; a passing test is no slower, only a failing one.
 */
configure({ asyncUtilTimeout: 5000 });
