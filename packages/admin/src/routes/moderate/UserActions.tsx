import { useId, useState } from 'react';
import { useClient } from 'urql';
import type { CombinedError } from 'urql';
import { ROLES, SUSPEND_DEFAULT_HOURS, SUSPEND_PRESETS_HOURS } from '@parley/contract';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import { SUSPEND_LABELS } from '../../suspendLabels';
import { isAdmin, useViewer } from '../../Viewer';
import type { Role } from '../../Viewer';
import { USER_ACTION_MUTATIONS } from './queries';

/** What the actions read of the drawer's user; the drawer's query spreads it. */
export const ModerationUserActionsFields = graphql(
  `fragment ModerationUserActionsFields on User { id username role status }`,
);

type ActionsUser = ResultOf<typeof ModerationUserActionsFields>;

type ActionName = 'ban' | 'unban' | 'suspend' | 'premod' | 'unpremod' | 'role';

const HOUR_MS = 3_600_000;

/**
 * The actions that make sense for the user's current status and the viewer's role, each with the
 * catalog key of its label.
 */
function choices(
  user: ActionsUser,
  admin: boolean,
): { value: ActionName; label: ConsoleMessageKey }[] {
  const list: { value: ActionName; label: ConsoleMessageKey }[] = [];
  if (user.status === 'BANNED' || user.status === 'SUSPENDED') {
    list.push({
      value: 'unban',
      label:
        user.status === 'BANNED'
          ? 'console.moderate.actions.unban'
          : 'console.moderate.actions.endSuspension',
    });
  }
  if (user.status !== 'BANNED') list.push({ value: 'ban', label: 'console.moderate.actions.ban' });
  list.push({ value: 'suspend', label: 'console.moderate.actions.suspend' });
  list.push(
    user.status === 'PREMOD'
      ? { value: 'unpremod', label: 'console.moderate.actions.unpremod' }
      : { value: 'premod', label: 'console.moderate.actions.premod' },
  );
  // Roles are the admins' to give (the server refuses moderators).
  if (admin) list.push({ value: 'role', label: 'console.moderate.actions.role' });
  return list;
}

/** Ban, suspend, premod and role changes on the drawer's user, each with an optional message. */
export function UserActions({ user, onDone }: { user: ActionsUser; onDone: () => void }) {
  const client = useClient();
  const t = useT();
  const errorText = useErrorText();
  const viewer = useViewer();
  const id = useId();
  const options = choices(user, isAdmin(viewer));
  const [action, setAction] = useState<ActionName>(options[0]?.value ?? 'suspend');
  const [hours, setHours] = useState<string>(String(SUSPEND_DEFAULT_HOURS));
  const [customUntil, setCustomUntil] = useState('');
  const [role, setRole] = useState<Role>(user.role);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  // After an action the choices change (a ban offers Unban): fall back to the first one.
  const current = options.some((o) => o.value === action) ? action : (options[0]?.value ?? action);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const note = message.trim() || null;
    let send: () => Promise<{ error?: CombinedError }>;
    switch (current) {
      case 'suspend': {
        const until =
          hours === 'custom'
            ? new Date(customUntil)
            : new Date(Date.now() + Number(hours) * HOUR_MS);
        if (Number.isNaN(until.getTime())) {
          setOutcome({ ok: false, text: t('console.moderate.actions.chooseEnd') });
          return;
        }
        const input = { userId: user.id, until: until.toISOString(), message: note };
        send = () => client.mutation(USER_ACTION_MUTATIONS.suspend, { input }).toPromise();
        break;
      }
      case 'premod':
      case 'unpremod': {
        const input = { userId: user.id, premod: current === 'premod', message: note };
        send = () => client.mutation(USER_ACTION_MUTATIONS.premod, { input }).toPromise();
        break;
      }
      case 'role': {
        const input = { userId: user.id, role, message: note };
        send = () => client.mutation(USER_ACTION_MUTATIONS.role, { input }).toPromise();
        break;
      }
      case 'unban': {
        const input = { userId: user.id };
        send = () => client.mutation(USER_ACTION_MUTATIONS.unban, { input }).toPromise();
        break;
      }
      case 'ban': {
        const input = { userId: user.id, message: note };
        send = () => client.mutation(USER_ACTION_MUTATIONS.ban, { input }).toPromise();
        break;
      }
    }
    setBusy(true);
    const result = await send();
    setBusy(false);
    if (result.error) {
      setOutcome({ ok: false, text: errorText(toTransportError(result.error).code) });
      return;
    }
    setOutcome({ ok: true, text: t('console.moderate.actions.done') });
    setMessage('');
    onDone();
  };

  // datetime-local speaks the viewer's local time: its `min` is now, shifted by the offset.
  const minLocal = new Date(Date.now() - new Date().getTimezoneOffset() * 60_000)
    .toISOString()
    .slice(0, 16);

  return (
    <form className="mod-user-actions" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('console.moderate.actions.title')}</h3>
      <label htmlFor={`${id}-action`}>{t('console.moderate.actions.action')}</label>
      <select
        id={`${id}-action`}
        value={current}
        onChange={(e) => setAction(e.target.value as ActionName)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {t(o.label)}
          </option>
        ))}
      </select>
      {current === 'suspend' && (
        <fieldset>
          <legend>{t('console.moderate.actions.howLong')}</legend>
          {[
            ...SUSPEND_PRESETS_HOURS.map((h) => ({
              value: String(h),
              label: t(SUSPEND_LABELS[h]),
            })),
            { value: 'custom', label: t('console.moderate.actions.custom') },
          ].map((p) => (
            <label key={p.value} className="inline">
              <input
                type="radio"
                name={`${id}-hours`}
                value={p.value}
                checked={hours === p.value}
                onChange={() => setHours(p.value)}
              />{' '}
              {p.label}
            </label>
          ))}
          {hours === 'custom' && (
            <>
              <label htmlFor={`${id}-until`}>{t('console.moderate.actions.suspendedUntil')}</label>
              <input
                id={`${id}-until`}
                type="datetime-local"
                min={minLocal}
                value={customUntil}
                onChange={(e) => setCustomUntil(e.target.value)}
              />
            </>
          )}
        </fieldset>
      )}
      {current === 'role' && (
        <>
          <label htmlFor={`${id}-role`}>{t('console.moderate.actions.newRole')}</label>
          <select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`console.moderate.role.${r}`)}
              </option>
            ))}
          </select>
        </>
      )}
      {current !== 'unban' && (
        <>
          <label htmlFor={`${id}-message`}>
            {t('console.moderate.actions.message', { username: user.username })}
          </label>
          <textarea
            id={`${id}-message`}
            rows={3}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
        </>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {t('console.moderate.actions.apply')}
      </button>
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'success' : undefined}>
          {outcome.text}
        </p>
      )}
    </form>
  );
}
