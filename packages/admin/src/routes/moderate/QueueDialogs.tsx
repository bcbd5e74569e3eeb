import { useState } from 'react';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import { Dialog } from './Dialog';
import type { QueueComment } from './ModerationCard';
import { USER_ACTION_MUTATIONS } from './queries';
import { SHORTCUTS } from './useQueueKeyboard';

/** The list of keyboard shortcuts (`?`). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  return (
    <Dialog title={t('console.moderate.shortcuts.title')} onClose={onClose}>
      <dl className="mod-shortcuts">
        {SHORTCUTS.map(({ key, does }) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{t(does)}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}

/** Asks before banning a comment's author (`b`), with an optional message to them. */
export function BanDialog({
  user,
  onClose,
}: {
  user: Pick<NonNullable<QueueComment['author']>, 'id' | 'username'>;
  onClose: (banned: boolean) => void;
}) {
  const t = useT();
  const errorText = useErrorText();
  const [message, setMessage] = useState('');
  const [{ fetching, error }, ban] = useMutation(USER_ACTION_MUTATIONS.ban);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const result = await ban({ input: { userId: user.id, message: message.trim() || null } });
    if (!result.error) onClose(true);
  };
  return (
    <Dialog
      title={t('console.moderate.ban.title', { username: user.username })}
      onClose={() => onClose(false)}
    >
      <form onSubmit={submit}>
        <p>{t('console.moderate.ban.text')}</p>
        <label htmlFor="ban-message">
          {t('console.moderate.ban.message', { username: user.username })}
        </label>
        <textarea
          id="ban-message"
          rows={3}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
        {error && <p role="alert">{errorText(toTransportError(error).code)}</p>}
        <div className="mod-dialog-actions">
          <button type="submit" className="primary danger" disabled={fetching}>
            {t('console.moderate.ban.submit', { username: user.username })}
          </button>
          <button type="button" onClick={() => onClose(false)}>
            {t('console.moderate.ban.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
