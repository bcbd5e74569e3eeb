import { useId, useState } from 'react';
import { uiLocale } from '../../formatWhen';
import { useMutation, useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
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
  const t = useT();
  const errorText = useErrorText();
  const [state, erase] = useMutation(ERASE_GUEST_MUTATION);
  const [error, setError] = useState<string | null>(null);
  const [erased, setErased] = useState(false);
  async function onErase() {
    if (!win.confirm(t('console.community.eraseGuest.confirm', { name }))) return;
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
        {t('console.community.eraseGuest.done')}
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
        {t('console.community.eraseGuest.submit')}
      </button>
      {error !== null && <p role="alert">{error}</p>}
    </div>
  );
}

/** How long a range ban lasts: the choices, in hours, with the catalog keys of their words. */
const BAN_LENGTHS: readonly [hours: number, label: ConsoleMessageKey][] = [
  [1, 'console.community.banLength.1'],
  [24, 'console.community.banLength.24'],
  [168, 'console.community.banLength.168'],
  [720, 'console.community.banLength.720'],
];

/** Keeps the bans list current after a change (urql refetches queries naming the type). */
const REFRESH = { additionalTypenames: ['IpBan'] };

const dateTime = (iso: string) => new Date(iso).toLocaleString(uiLocale());

/**
 * Bans a range (an address or CIDR, at most a /16 or an IPv6 /32) for a time: guests from it
 * can neither start nor post, and nobody from it can sign up. `initialRange`: the range the
 * drawer suggests for a guest's address.
 */
export function IpBanForm({ initialRange = '' }: { initialRange?: string }) {
  const id = useId();
  const t = useT();
  const errorText = useErrorText();
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
          ? t('console.community.ipBanForm.invalidRange')
          : errorText(code ?? 'INTERNAL'),
      );
    } else {
      setDone(
        t('console.community.ipBanForm.done', {
          range: banned.range,
          when: dateTime(banned.expiresAt),
        }),
      );
      setReason('');
    }
  }

  return (
    <form className="ip-ban-form" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('console.community.ipBanForm.title')}</h3>
      <label htmlFor={`${id}-range`}>{t('console.community.ipBanForm.range')}</label>
      <input
        id={`${id}-range`}
        value={range}
        required
        placeholder="203.0.113.0/24"
        aria-describedby={`${id}-range-hint`}
        onChange={(e) => setRange(e.target.value)}
      />
      <p id={`${id}-range-hint`} className="hint">
        {t('console.community.ipBanForm.rangeHint')}
      </p>
      <label htmlFor={`${id}-hours`}>{t('console.community.ipBanForm.hours')}</label>
      <select id={`${id}-hours`} value={hours} onChange={(e) => setHours(e.target.value)}>
        {BAN_LENGTHS.map(([value, label]) => (
          <option key={value} value={String(value)}>
            {t(label)}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-reason`}>{t('console.community.ipBanForm.reason')}</label>
      <input
        id={`${id}-reason`}
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.target.value)}
      />
      <button type="submit" disabled={state.fetching}>
        {t('console.community.ipBanForm.submit')}
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
  const t = useT();
  const errorText = useErrorText();
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
      <h2 id="ip-bans-title">{t('console.community.ipBans.title')}</h2>
      {error && !data && <p role="alert">{errorText(toTransportError(error).code)}</p>}
      {!data && !error && <Loading />}
      {data && bans.length === 0 && <p>{t('console.community.ipBans.empty')}</p>}
      {bans.length > 0 && (
        <table>
          <caption className="visually-hidden">{t('console.community.ipBans.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('console.community.ipBans.range')}</th>
              <th scope="col">{t('console.community.ipBans.until')}</th>
              <th scope="col">{t('console.community.ipBans.reason')}</th>
              <th scope="col">{t('console.community.ipBans.by')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('console.community.ipBans.actions')}</span>
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
                      ? t('console.community.ipBans.lifted', { when: dateTime(ban.liftedAt) })
                      : t('console.community.ipBans.ended', { when: dateTime(ban.expiresAt) })}
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
                      {t('console.community.ipBans.lift.visible')}
                      <span className="visually-hidden">
                        {' '}
                        {t('console.community.ipBans.lift.hidden', { range: ban.range })}
                      </span>
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
