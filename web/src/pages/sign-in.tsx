// Sign in with an API key (checked against /api/user/profile before it is kept), or accept an invite and
// land signed in with the first key, shown once.
import type { RequestBody, ResponseBody } from '@crestwatch/client';
import { useState } from 'preact/hooks';
import { ApiProblem, api } from '../api.ts';
import { ErrorNote } from '../components/ui.tsx';
import { signIn } from '../session.ts';

/** An accepted invitation, as the page shows it: who joined and their first key. */
interface Accepted {
  email: string;
  key: string;
}

export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [token, setToken] = useState('');
  const [name, setName] = useState('');
  const [inviteError, setInviteError] = useState<unknown>(null);
  const [accepted, setAccepted] = useState<Accepted | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      await api('/api/user/profile', { key: key.trim() });
      signIn(key.trim());
      onSignedIn();
    } catch (failure) {
      setError(failure);
    }
  };

  const accept = async (event: Event) => {
    event.preventDefault();
    setInviteError(null);
    try {
      const body = {
        token: token.trim(),
        ...(name.trim() ? { full_name: name.trim() } : {}),
      } satisfies RequestBody<'/api/org/invites/accept', 'post'>;
      const made = await api<ResponseBody<'/api/org/invites/accept', 'post'>>('/api/org/invites/accept', {
        method: 'POST',
        body,
        key: null,
      });
      // The document lets the key be null (Crestwatch always sends it); signing in with none would keep "null".
      if (made.api_key.api_key === null) {
        setInviteError(
          new Error('You joined, but the answer did not include your key: ask an administrator for one.'),
        );
        return;
      }
      setAccepted({ email: made.user.email, key: made.api_key.api_key });
    } catch (failure) {
      setInviteError(failure instanceof ApiProblem ? failure : new Error(String(failure)));
    }
  };

  return (
    <main id="main" class="sign-in">
      <h1>Crestwatch</h1>
      <p>Trends, crises and alerts from the signals Crestwatch ingests. Sign in with an API key.</p>
      <form onSubmit={submit} class="card">
        <h2>Sign in</h2>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          required
          placeholder="cw_…"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <p class="hint">
          The key stays in this tab's session storage and is forgotten when you sign out or close the tab. A
          new installation writes the operator's key to <code>data/bootstrap-key.txt</code>.
        </p>
        <ErrorNote error={error} />
        <button type="submit">Sign in</button>
      </form>
      <form onSubmit={accept} class="card">
        <h2>Accept an invitation</h2>
        {accepted ? (
          <div role="status">
            <p>
              Welcome, {accepted.email}. This is your first API key; it is shown only now, so keep it
              somewhere safe:
            </p>
            <p>
              <code class="secret">{accepted.key}</code>
            </p>
            <button
              type="button"
              onClick={() => {
                signIn(accepted.key);
                onSignedIn();
              }}
            >
              Continue to the dashboard
            </button>
          </div>
        ) : (
          <>
            <label for="invite-token">Invitation token</label>
            <input
              id="invite-token"
              required
              placeholder="cwi_…"
              value={token}
              onInput={(e) => setToken(e.currentTarget.value)}
            />
            <label for="full-name">Your name (optional)</label>
            <input id="full-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
            <ErrorNote error={inviteError} />
            <button type="submit">Accept and get my key</button>
          </>
        )}
      </form>
    </main>
  );
}
