// The dashboard's entry: sign-in gate, the header (navigation, notification bell, sign out) and the pages.
import type { ResponseBody } from '@crestwatch/client';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './styles.css';
import { api } from './api.ts';
import { useLoad } from './components/ui.tsx';
import { AccountPage } from './pages/account.tsx';
import { AlertsPage, RecommendationsPage, UNREAD_CHANGED } from './pages/alerts.tsx';
import { CrisisPage } from './pages/crisis.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { TrendPage } from './pages/trend.tsx';
import { TrendsPage } from './pages/trends.tsx';
import { useRoute } from './route.ts';
import { currentKey, signOut } from './session.ts';

const NAV = [
  ['trends', 'Trends'],
  ['crisis', 'Crisis desk'],
  ['recommendations', 'Recommendations'],
  ['alerts', 'Alerts'],
  ['account', 'Account'],
] as const;

/**
 * The unread count, asked again on each page change and when notifications are marked read (not on a timer:
 * every request counts against quota).
 */
function Bell({ page }: { page: string }) {
  const feed = useLoad(
    () => api<ResponseBody<'/api/user/notifications/recent'>>('/api/user/notifications/recent?limit=1'),
    [page],
  );
  const { reload } = feed;
  useEffect(() => {
    window.addEventListener(UNREAD_CHANGED, reload);
    return () => window.removeEventListener(UNREAD_CHANGED, reload);
  }, [reload]);
  const unread = feed.data?.unread_count ?? 0;
  return (
    <a class="bell" href="#/alerts" aria-label={`Notifications: ${unread} unread`}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
      </svg>
      {unread > 0 ? <span class="badge">{unread}</span> : null}
    </a>
  );
}

function Shell({ onSignOut }: { onSignOut: () => void }) {
  const route = useRoute();
  let page = <TrendsPage />;
  if (route.page === 'trends' && route.id !== null) page = <TrendPage id={route.id} />;
  else if (route.page === 'crisis') page = <CrisisPage id={route.id} />;
  else if (route.page === 'alerts') page = <AlertsPage />;
  else if (route.page === 'recommendations') page = <RecommendationsPage />;
  else if (route.page === 'account') page = <AccountPage />;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/trends">
          Crestwatch
        </a>
        <nav aria-label="Main">
          {NAV.map(([id, label]) => (
            <a key={id} href={`#/${id}`} aria-current={route.page === id ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <Bell page={route.page} />
        <button type="button" class="link" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main">{page}</main>
    </>
  );
}

function App() {
  const [key, setKey] = useState(currentKey());
  if (!key) return <SignInPage onSignedIn={() => setKey(currentKey())} />;
  return (
    <Shell
      onSignOut={() => {
        signOut();
        setKey(null);
        location.hash = '';
      }}
    />
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
