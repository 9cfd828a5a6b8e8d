// Account: API keys (a new or rotated key's value is shown once), 30-day usage against the daily quota, the
// audit log, and the organisation's members and invites.
import type { RequestBody, ResponseBody } from '@crestwatch/client';
import { useCallback, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { TimeChart } from '../components/charts.tsx';
import { Empty, ErrorNote, PageTitle, useLoad } from '../components/ui.tsx';
import { formatTime } from '../format.ts';
import { currentKey, signIn } from '../session.ts';

type Role = RequestBody<'/api/org/invites', 'post'>['role'];
type MadeKey = ResponseBody<'/api/user/api-keys', 'post'>;

/**
 * A made or rotated key's value. The document lets it be null (Crestwatch always sends it): then there is
 * nothing to show once, and signing in with it would keep the text "null" as the key.
 */
function keyValue(made: MadeKey): string {
  if (made.api_key === null) {
    throw new Error(
      `The answer did not include the value of key “${made.name}”: revoke it and create another.`,
    );
  }
  return made.api_key;
}

/** `onChange` is told after each change the audit log records, so the log on the same page follows. */
function Keys({ onChange }: { onChange: () => void }) {
  const keys = useLoad(() => api<ResponseBody<'/api/user/api-keys'>>('/api/user/api-keys'), []);
  const [name, setName] = useState('');
  const [shown, setShown] = useState<{ name: string; value: string; session?: boolean } | null>(null);
  const [error, setError] = useState<unknown>(null);

  const run = async (task: () => Promise<void>) => {
    setError(null);
    try {
      await task();
      keys.reload();
      onChange();
    } catch (failure) {
      setError(failure);
    }
  };
  const create = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      const made = await api<MadeKey>('/api/user/api-keys', {
        method: 'POST',
        body: { name: name.trim() } satisfies RequestBody<'/api/user/api-keys', 'post'>,
      });
      setShown({ name: made.name, value: keyValue(made) });
      setName('');
    });
  };
  return (
    <section class="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <form onSubmit={create} class="inline-form">
        <label for="key-name">New key name</label>
        <input
          id="key-name"
          required
          maxLength={100}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <button type="submit">Create key</button>
      </form>
      {shown ? (
        <div class="secret-box" role="status">
          <p>Your key “{shown.name}” is below. It is shown only this once: copy it now.</p>
          {shown.session ? (
            <p>
              You were signed in with the key you rotated, which now works only for its grace period: this tab
              uses the new key from now on.
            </p>
          ) : null}
          <code class="secret" data-testid="new-key">
            {shown.value}
          </code>
          <button type="button" class="secondary" onClick={() => setShown(null)}>
            I have copied it
          </button>
        </div>
      ) : null}
      <ErrorNote error={error ?? keys.error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Permissions</th>
              <th scope="col">State</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(keys.data?.keys ?? []).map((k) => (
              <tr key={k.id} data-key-id={k.id}>
                <th scope="row">{k.name}</th>
                <td>
                  <code>{k.prefix}</code>
                </td>
                <td>{k.permissions.join(', ')}</td>
                <td>
                  {k.is_active
                    ? k.rotated_to_id != null
                      ? `rotated: works until ${formatTime(k.expires_at ?? null)}`
                      : k.expires_at
                        ? `active until ${formatTime(k.expires_at)}`
                        : 'active'
                    : 'revoked or expired'}
                </td>
                <td>{formatTime(k.last_used_at)}</td>
                <td class="row-actions">
                  {k.is_active ? (
                    <>
                      {k.rotated_to_id != null ? null : (
                        <button
                          type="button"
                          class="secondary"
                          aria-label={`Rotate key ${k.name} (${k.prefix}…)`}
                          onClick={() =>
                            run(async () => {
                              const made = await api<
                                ResponseBody<'/api/user/api-keys/{key_id}/rotate', 'post'>
                              >(`/api/user/api-keys/${k.id}/rotate`, {
                                method: 'POST',
                                body: {} satisfies RequestBody<'/api/user/api-keys/{key_id}/rotate', 'post'>,
                              });
                              const value = keyValue(made);
                              // The rotated key stops working after its grace period (and may no longer
                              // create keys): a tab signed in with it moves to the successor.
                              const session =
                                k.prefix !== null && currentKey()?.startsWith(k.prefix) === true;
                              if (session) signIn(value);
                              setShown({ name: made.name, value, session });
                            })
                          }
                        >
                          Rotate
                        </button>
                      )}
                      <button
                        type="button"
                        class="danger"
                        aria-label={`Revoke key ${k.name} (${k.prefix}…)`}
                        onClick={() =>
                          confirm(`Revoke “${k.name}”? Requests with it are refused at once.`) &&
                          run(() => api(`/api/user/api-keys/${k.id}`, { method: 'DELETE' }))
                        }
                      >
                        Revoke
                      </button>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function UsageChart() {
  const usage = useLoad(() => api<ResponseBody<'/api/user/api-usage'>>('/api/user/api-usage'), []);
  const days = usage.data?.daily_usage ?? [];
  const limit = usage.data?.summary?.plan_daily_limit ?? null;
  return (
    <section class="card" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage, last 30 days</h2>
      <ErrorNote error={usage.error} />
      {usage.data ? (
        <>
          <p>
            {usage.data.summary?.requests_today ?? 0} requests today
            {limit === null ? ' (no daily quota on this plan).' : ` of a daily quota of ${limit}.`}
          </p>
          <TimeChart
            points={days.map((d) => ({ timestamp: `${d.date}T00:00:00Z`, value: d.request_count }))}
            label="Requests per UTC day"
            quota={limit === null ? null : { label: 'Daily quota', value: limit }}
          />
        </>
      ) : null}
    </section>
  );
}

/** `version` changes when a section of this page changed something the log records. */
function AuditLog({ version }: { version: number }) {
  const log = useLoad(
    () => api<ResponseBody<'/api/user/audit-log'>>('/api/user/audit-log?limit=20'),
    [version],
  );
  const entries = log.data?.entries ?? [];
  return (
    <section class="card" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <ErrorNote error={log.error} />
      {log.data && entries.length === 0 ? (
        <Empty>Nothing recorded yet: key changes appear here.</Empty>
      ) : null}
      <ul class="audit">
        {entries.map((e) => (
          <li key={e.id}>
            {formatTime(e.created_at)} <strong>{e.action}</strong> {e.detail}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Organisation({ onChange }: { onChange: () => void }) {
  const members = useLoad(() => api<ResponseBody<'/api/org/members'>>('/api/org/members'), []);
  const invites = useLoad(() => api<ResponseBody<'/api/org/invites'>>('/api/org/invites'), []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [link, setLink] = useState('');
  const [error, setError] = useState<unknown>(null);
  const changeRole = (id: number, newRole: Role) => {
    setError(null);
    api(`/api/org/members/${id}`, {
      method: 'PATCH',
      body: { role: newRole } satisfies RequestBody<'/api/org/members/{id}', 'patch'>,
    }).then(
      () => {
        members.reload();
        onChange();
      },
      (failure) => {
        setError(failure);
        members.reload();
      },
    );
  };
  const invite = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const made = await api<ResponseBody<'/api/org/invites', 'post'>>('/api/org/invites', {
        method: 'POST',
        body: { email: email.trim(), role } satisfies RequestBody<'/api/org/invites', 'post'>,
      });
      setLink(`${made.accept_url} (token ${made.token})`);
      setEmail('');
      invites.reload();
      onChange();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section class="card" aria-labelledby="org-title">
      <h2 id="org-title">Organisation</h2>
      <ErrorNote error={members.error ?? invites.error} />
      <h3>Members</h3>
      <ul class="members">
        {(members.data ?? []).map((m) => (
          <li key={m.id}>
            {m.email} · joined {formatTime(m.joined_at)}{' '}
            <label class="visually-hidden" for={`role-${m.id}`}>
              Role of {m.email}
            </label>
            <select
              id={`role-${m.id}`}
              class="compact"
              value={m.role}
              onChange={(e) => changeRole(m.id, e.currentTarget.value as Role)}
            >
              <option value="member">member</option>
              <option value="admin">admin</option>
              <option value="owner">owner</option>
            </select>{' '}
            <button
              type="button"
              class="secondary"
              aria-label={`Remove ${m.email} from the organisation`}
              onClick={() =>
                confirm(`Remove ${m.email}? Their keys are revoked and their account disabled.`) &&
                api(`/api/org/members/${m.id}`, { method: 'DELETE' }).then(() => {
                  members.reload();
                  onChange();
                }, setError)
              }
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <h3>Pending invites</h3>
      {invites.data && invites.data.length === 0 ? (
        <Empty>No pending invites: invite someone below.</Empty>
      ) : null}
      <ul>
        {(invites.data ?? []).map((i) => (
          <li key={i.id}>
            {i.email} as {i.role}, expires {formatTime(i.expires_at)}{' '}
            <button
              type="button"
              class="secondary"
              aria-label={`Revoke the invite for ${i.email}`}
              onClick={() =>
                api(`/api/org/invites/${i.id}`, { method: 'DELETE' }).then(() => {
                  invites.reload();
                  onChange();
                }, setError)
              }
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={invite} class="inline-form">
        <label for="invite-email">Email</label>
        <input
          id="invite-email"
          type="email"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="invite-role">Role</label>
        <select id="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
          <option value="member">member</option>
          <option value="admin">admin</option>
          <option value="owner">owner</option>
        </select>
        <button type="submit">Invite</button>
      </form>
      {link ? (
        <p role="status">
          Send this link to the invitee yourself (Crestwatch sends no email); it is shown only now:{' '}
          <code>{link}</code>
        </p>
      ) : null}
      <ErrorNote error={error} />
    </section>
  );
}

export function AccountPage() {
  const [changes, setChanges] = useState(0);
  const changed = useCallback(() => setChanges((n) => n + 1), []);
  return (
    <section>
      <PageTitle>Account</PageTitle>
      <Keys onChange={changed} />
      <UsageChart />
      <AuditLog version={changes} />
      <Organisation onChange={changed} />
    </section>
  );
}
