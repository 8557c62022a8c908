import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { startSessionEarly } from './lib/auth/probe-session';
import { createQueryClient } from './lib/query-client';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The session's cookie exchange runs while React renders and the page's code loads (issue 26 item 7).
startSessionEarly();

const queryClient = createQueryClient();
createRoot(container).render(
  <StrictMode>
    <Providers router={createAppRouter(queryClient)} queryClient={queryClient} />
  </StrictMode>,
);
