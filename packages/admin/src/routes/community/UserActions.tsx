import { useId, useState } from 'react';
import { uiLocale } from '../../formatWhen';
import { useMutation } from 'urql';
import type { CombinedError } from 'urql';
import { SUSPEND_DEFAULT_HOURS, SUSPEND_PRESETS_HOURS } from '@parley/contract';
import { toTransportError } from '@parley/transport';
import { useConsoleEnv } from '../../ConsoleContext';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
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
  const t = useT();
  const errorText = useErrorText();
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
      setError(t('console.community.actions.suspend.chooseEnd'));
      return;
    }
    void run(
      () => runSuspend({ input: { userId: user.id, until, message: note } }),
      t('console.community.actions.suspend.done', {
        when: new Date(until).toLocaleString(uiLocale()),
      }),
    );
  }

  const restricted = user.status === 'BANNED' || user.status === 'SUSPENDED';
  return (
    <div className="user-actions" aria-busy={busy}>
      <label htmlFor={`${id}-message`}>
        {t('console.community.actions.message', { username: user.username })}
      </label>
      <textarea
        id={`${id}-message`}
        rows={2}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        aria-describedby={`${id}-message-hint`}
      />
      <p id={`${id}-message-hint`} className="hint">
        {t('console.community.actions.messageHint')}
      </p>
      <div className="action-row">
        {restricted ? (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void run(
                () => runUnban({ input: { userId: user.id } }),
                t('console.community.actions.restored'),
              )
            }
          >
            {user.status === 'BANNED'
              ? t('console.community.actions.unban')
              : t('console.community.actions.endSuspension')}
          </button>
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              if (
                !win.confirm(t('console.community.actions.banConfirm', { username: user.username }))
              )
                return;
              void run(
                () => runBan({ input: { userId: user.id, message: note } }),
                t('console.community.actions.banned'),
              );
            }}
          >
            {t('console.community.actions.ban')}
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
              user.status === 'PREMOD'
                ? t('console.community.actions.premodOffDone')
                : t('console.community.actions.premodOnDone'),
            )
          }
        >
          {user.status === 'PREMOD'
            ? t('console.community.actions.premodOff')
            : t('console.community.actions.premodOn')}
        </button>
      </div>
      <fieldset className="action-row">
        <legend>{t('console.community.actions.suspend.legend')}</legend>
        <label htmlFor={`${id}-hours`} className="inline">
          {t('console.community.actions.suspend.for')}
        </label>
        <select id={`${id}-hours`} value={hours} onChange={(e) => setHours(e.target.value)}>
          {SUSPEND_PRESETS_HOURS.map((preset) => (
            <option key={preset} value={String(preset)}>
              {t(SUSPEND_LABELS[preset])}
            </option>
          ))}
          <option value="custom">{t('console.community.actions.suspend.custom')}</option>
        </select>
        {hours === 'custom' && (
          <>
            <label htmlFor={`${id}-until`} className="inline">
              {t('console.community.actions.suspend.ends')}
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
          {t('console.community.actions.suspend.submit')}
        </button>
      </fieldset>
      <p aria-live="polite" className="success">
        {done}
      </p>
      {error !== null && <p role="alert">{error}</p>}
    </div>
  );
}
