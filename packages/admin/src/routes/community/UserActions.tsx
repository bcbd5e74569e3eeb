import { useId, useState } from 'react';
import { useMutation } from 'urql';
import type { CombinedError } from 'urql';
import { SUSPEND_DEFAULT_HOURS, SUSPEND_PRESETS_HOURS } from '@parley/contract';
import { toTransportError } from '@parley/transport';
import { useConsoleEnv } from '../../ConsoleContext';
import { errorText } from '../../errorText';
import { SUSPEND_LABELS } from '../../suspendLabels';
import {
  BAN_USER_MUTATION,
  SET_USER_PREMOD_MUTATION,
  SUSPEND_USER_MUTATION,
  UNBAN_USER_MUTATION,
} from './communityQueries';
import type { CommunityUser } from './UserRow';

const HOUR_MS = 3_600_000;

/**
 * The status actions on one user: ban or unban, suspend (1 h, 24 h, 7 days or until a chosen
 * time) and pre-moderation on or off, with an optional message emailed to the user (the
 * contract carries none for unban). The message is the row's: the role select sends it too.
 */
export function UserActions({
  user,
  message,
  setMessage,
}: {
  user: CommunityUser;
  message: string;
  setMessage: (message: string) => void;
}) {
  const { window: win } = useConsoleEnv();
  const id = useId();
  // A preset's hours, or 'custom' for an end time.
  const [hours, setHours] = useState<string>(String(SUSPEND_DEFAULT_HOURS));
  const [customUntil, setCustomUntil] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ban, runBan] = useMutation(BAN_USER_MUTATION);
  const [unban, runUnban] = useMutation(UNBAN_USER_MUTATION);
  const [suspend, runSuspend] = useMutation(SUSPEND_USER_MUTATION);
  const [premod, runPremod] = useMutation(SET_USER_PREMOD_MUTATION);
  const busy = ban.fetching || unban.fetching || suspend.fetching || premod.fetching;
  const note = message.trim() === '' ? null : message.trim();

  async function run(
    send: () => Promise<{ error?: CombinedError }>,
    success: string,
  ): Promise<void> {
    setDone(null);
    setError(null);
    const result = await send();
    if (result.error) setError(errorText(toTransportError(result.error).code));
    else {
      setDone(success);
      setMessage('');
    }
  }

  function suspendUntil(): string | null {
    if (hours !== 'custom') return new Date(Date.now() + Number(hours) * HOUR_MS).toISOString();
    // datetime-local is the moderator's local time without a zone; Date reads it that way.
    const until = new Date(customUntil);
    return Number.isNaN(until.getTime()) ? null : until.toISOString();
  }

  function onSuspend() {
    const until = suspendUntil();
    if (until === null) {
      setError('Choose when the suspension ends.');
      return;
    }
    void run(
      () => runSuspend({ input: { userId: user.id, until, message: note } }),
      `Suspended until ${new Date(until).toLocaleString()}.`,
    );
  }

  const restricted = user.status === 'BANNED' || user.status === 'SUSPENDED';
  return (
    <div className="user-actions" aria-busy={busy}>
      <label htmlFor={`${id}-message`}>Message to {user.username} (optional)</label>
      <textarea
        id={`${id}-message`}
        rows={2}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        aria-describedby={`${id}-message-hint`}
      />
      <p id={`${id}-message-hint`} className="hint">
        Emailed with a ban, a suspension, pre-moderation or a role change.
      </p>
      <div className="action-row">
        {restricted ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(() => runUnban({ input: { userId: user.id } }), 'Restored.')}
          >
            {user.status === 'BANNED' ? 'Unban' : 'End suspension'}
          </button>
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              if (!win.confirm(`Ban ${user.username}?`)) return;
              void run(() => runBan({ input: { userId: user.id, message: note } }), 'Banned.');
            }}
          >
            Ban
          </button>
        )}
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            void run(
              () =>
                runPremod({
                  input: {
                    userId: user.id,
                    premod: user.status !== 'PREMOD',
                    ...(note === null ? {} : { message: note }),
                  },
                }),
              user.status === 'PREMOD' ? 'Pre-moderation off.' : 'Pre-moderation on.',
            )
          }
        >
          {user.status === 'PREMOD' ? 'Pre-moderation off' : 'Pre-moderation on'}
        </button>
      </div>
      <fieldset className="action-row">
        <legend>Suspend</legend>
        <label htmlFor={`${id}-hours`} className="inline">
          For
        </label>
        <select id={`${id}-hours`} value={hours} onChange={(e) => setHours(e.target.value)}>
          {SUSPEND_PRESETS_HOURS.map((preset) => (
            <option key={preset} value={String(preset)}>
              {SUSPEND_LABELS[preset]}
            </option>
          ))}
          <option value="custom">Until…</option>
        </select>
        {hours === 'custom' && (
          <>
            <label htmlFor={`${id}-until`} className="inline">
              Ends
            </label>
            <input
              id={`${id}-until`}
              type="datetime-local"
              value={customUntil}
              onChange={(e) => setCustomUntil(e.target.value)}
            />
          </>
        )}
        <button type="button" disabled={busy} onClick={onSuspend}>
          Suspend
        </button>
      </fieldset>
      <p aria-live="polite" className="success">
        {done}
      </p>
      {error !== null && <p role="alert">{error}</p>}
    </div>
  );
}
