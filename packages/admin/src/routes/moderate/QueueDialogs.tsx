import { useState } from 'react';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import { errorText } from '../../errorText';
import { Dialog } from './Dialog';
import type { QueueComment } from './ModerationCard';
import { USER_ACTION_MUTATIONS } from './queries';
import { SHORTCUTS } from './useQueueKeyboard';

/** The list of keyboard shortcuts (`?`). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose}>
      <dl className="mod-shortcuts">
        {SHORTCUTS.map(({ key, does }) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{does}</dd>
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
  const [message, setMessage] = useState('');
  const [{ fetching, error }, ban] = useMutation(USER_ACTION_MUTATIONS.ban);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const result = await ban({ input: { userId: user.id, message: message.trim() || null } });
    if (!result.error) onClose(true);
  };
  return (
    <Dialog title={`Ban ${user.username}?`} onClose={() => onClose(false)}>
      <form onSubmit={submit}>
        <p>They will no longer be able to comment. You can lift a ban from their profile.</p>
        <label htmlFor="ban-message">Message to {user.username} (optional)</label>
        <textarea
          id="ban-message"
          rows={3}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
        {error && <p role="alert">{errorText(toTransportError(error).code)}</p>}
        <div className="mod-dialog-actions">
          <button type="submit" className="primary danger" disabled={fetching}>
            Ban {user.username}
          </button>
          <button type="button" onClick={() => onClose(false)}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
