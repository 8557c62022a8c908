import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { Providers } from '../app/providers';
import { createAppRoutes } from '../app/router';
import { createQueryClient } from '../lib/query-client';

/** Renders the whole app at `path` with a fresh query client; returns the router to follow navigation. */
export function renderApp(path: string) {
  const router = createMemoryRouter(createAppRoutes(), { initialEntries: [path] });
  render(<Providers router={router} queryClient={createQueryClient()} />);
  return router;
}
