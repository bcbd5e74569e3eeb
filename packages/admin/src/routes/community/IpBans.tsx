import { useId, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { errorText } from '../../errorText';
import { useConsoleEnv } from '../../ConsoleContext';
import { Loading } from '../../Loading';

/** The address-range bans, newest first (the server's order). */
export const IP_BANS_QUERY = graphql(`
  query ConsoleIpBans {
    ipBans(first: 50) {
      edges { node { id range reason expiresAt createdAt liftedAt active createdBy { username } } }
    }
  }
`);

/** Bans an address range for a time. */
export const BAN_IP_RANGE_MUTATION = graphql(`
  mutation BanIpRange($input: BanIpRangeInput!) {
    banIpRange(input: $input) { ipBan { id range expiresAt active } }
  }
`);

/** Ends a range ban early. */
export const LIFT_IP_BAN_MUTATION = graphql(`
  mutation LiftIpBan($input: IpBanIdInput!) {
    liftIpBan(input: $input) { ipBan { id active liftedAt } }
  }
`);

/** Erases a guest at once (admins): their comments emptied, their name and address gone. */
export const ERASE_GUEST_MUTATION = graphql(`
  mutation EraseGuest($input: UserIdInput!) {
    eraseGuest(input: $input) { user { id username } }
  }
`);

/**
 * "Erase this guest" (admins, in the drawer): a guest has no profile to delete themselves from,
 * so they ask the site; confirmed first, done at once.
 */
export function EraseGuest({
  userId,
  name,
  onDone,
}: {
  userId: string;
  name: string;
  onDone: () => void;
}) {
  const { window: win } = useConsoleEnv();
  const [state, erase] = useMutation(ERASE_GUEST_MUTATION);
  const [error, setError] = useState<string | null>(null);
  const [erased, setErased] = useState(false);
  async function onErase() {
    if (
      !win.confirm(
        `Erase ${name}? Their comments are emptied and their name and address forgotten, now.`,
      )
    )
      return;
    setError(null);
    const result = await erase({ input: { userId } });
    if (result.error) setError(errorText(toTransportError(result.error).code));
    else {
      setErased(true);
      onDone();
    }
  }
  // Done once: the drawer then shows the emptied account.
  if (erased) {
    return (
      <p role="status" className="success">
        Erased.
      </p>
    );
  }
  return (
    <div className="action-row">
      <button
        type="button"
        className="danger"
        disabled={state.fetching}
        onClick={() => void onErase()}
      >
        Erase this guest
      </button>
      {error !== null && <p role="alert">{error}</p>}
    </div>
  );
}

/** How long a range ban lasts: the choices, in hours, with their words. */
const BAN_LENGTHS: readonly [hours: number, label: string][] = [
  [1, '1 hour'],
  [24, '24 hours'],
  [168, '7 days'],
  [720, '30 days'],
];

/** Keeps the bans list current after a change (urql refetches queries naming the type). */
const REFRESH = { additionalTypenames: ['IpBan'] };

const dateTime = (iso: string) => new Date(iso).toLocaleString();

/**
 * Bans a range (an address or CIDR, at most a /16 or an IPv6 /32) for a time: guests from it
 * can neither start nor post, and nobody from it can sign up. `initialRange`: the range the
 * drawer suggests for a guest's address.
 */
export function IpBanForm({ initialRange = '' }: { initialRange?: string }) {
  const id = useId();
  const [range, setRange] = useState(initialRange);
  const [hours, setHours] = useState('24');
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [state, ban] = useMutation(BAN_IP_RANGE_MUTATION);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setDone(null);
    setError(null);
    const result = await ban(
      { input: { range, hours: Number(hours), reason: reason.trim() || null } },
      REFRESH,
    );
    const banned = result.data?.banIpRange.ipBan;
    const code = result.error ? toTransportError(result.error).code : banned ? null : 'INTERNAL';
    if (code !== null || !banned) {
      // The length and the reason are bounded by the form: a refused input is the range.
      setError(
        code === 'INVALID_INPUT'
          ? 'Enter one address, or a range no wider than a /16 (IPv6: a /32), such as 203.0.113.0/24.'
          : errorText(code ?? 'INTERNAL'),
      );
    } else {
      setDone(`Banned ${banned.range} until ${dateTime(banned.expiresAt)}.`);
      setReason('');
    }
  }

  return (
    <form className="ip-ban-form" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Ban a network</h3>
      <label htmlFor={`${id}-range`}>Address or range</label>
      <input
        id={`${id}-range`}
        value={range}
        required
        placeholder="203.0.113.0/24"
        aria-describedby={`${id}-range-hint`}
        onChange={(e) => setRange(e.target.value)}
      />
      <p id={`${id}-range-hint`} className="hint">
        One address, or a range such as 203.0.113.0/24 or 2001:db8::/48 (at most a /16, or an IPv6
        /32). Guests from it can neither comment nor start as guests, and nobody can sign up from
        it; members already signed in are not affected.
      </p>
      <label htmlFor={`${id}-hours`}>Ban for</label>
      <select id={`${id}-hours`} value={hours} onChange={(e) => setHours(e.target.value)}>
        {BAN_LENGTHS.map(([value, label]) => (
          <option key={value} value={String(value)}>
            {label}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-reason`}>Reason (optional, moderators only)</label>
      <input
        id={`${id}-reason`}
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.target.value)}
      />
      <button type="submit" disabled={state.fetching}>
        Ban network
      </button>
      <p aria-live="polite" className="success">
        {done}
      </p>
      {error !== null && <p role="alert">{error}</p>}
    </form>
  );
}

/** Community › Banned networks: the range bans, with Lift on those in force, and a new ban. */
export function IpBansSection() {
  const [{ data, error }] = useQuery({ query: IP_BANS_QUERY, context: REFRESH });
  const [lifting, lift] = useMutation(LIFT_IP_BAN_MUTATION);
  const [liftError, setLiftError] = useState<string | null>(null);
  const bans = data?.ipBans.edges.map((edge) => edge.node) ?? [];

  async function onLift(banId: string) {
    setLiftError(null);
    const result = await lift({ input: { id: banId } }, REFRESH);
    if (result.error) setLiftError(errorText(toTransportError(result.error).code));
  }

  return (
    <section aria-labelledby="ip-bans-title" className="ip-bans">
      <h2 id="ip-bans-title">Banned networks</h2>
      {error && !data && <p role="alert">{errorText(toTransportError(error).code)}</p>}
      {!data && !error && <Loading />}
      {data && bans.length === 0 && <p>No network is banned.</p>}
      {bans.length > 0 && (
        <table>
          <caption className="visually-hidden">Banned networks</caption>
          <thead>
            <tr>
              <th scope="col">Range</th>
              <th scope="col">Until</th>
              <th scope="col">Reason</th>
              <th scope="col">By</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {bans.map((ban) => (
              <tr key={ban.id}>
                <th scope="row">{ban.range}</th>
                <td>
                  {ban.active
                    ? dateTime(ban.expiresAt)
                    : ban.liftedAt
                      ? `Lifted ${dateTime(ban.liftedAt)}`
                      : `Ended ${dateTime(ban.expiresAt)}`}
                </td>
                <td className="wrap">{ban.reason || '—'}</td>
                <td>{ban.createdBy?.username ?? '—'}</td>
                <td>
                  {ban.active && (
                    <button
                      type="button"
                      disabled={lifting.fetching}
                      onClick={() => void onLift(ban.id)}
                    >
                      Lift<span className="visually-hidden"> the ban of {ban.range}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {liftError !== null && <p role="alert">{liftError}</p>}
      <IpBanForm />
    </section>
  );
}
