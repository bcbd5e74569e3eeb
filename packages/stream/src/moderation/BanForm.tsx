import { BAN_USER_MUTATION } from '@parley/transport/user-actions';
import { useMutation } from '@urql/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ActionStatus } from '../panels/ActionStatus';
import { useAction } from '../panels/useAction';
import { useStreamEnv } from '../StreamContext';
import type { Author } from '../CommentView';

// The console's user actions send this document too. Exported from here because
// scripts/persistedDocuments.ts lists the operations the stream's own modules export.
export { BAN_USER_MUTATION };

/**
 * The confirmation step of "Ban author": names who is banned, takes an optional message, and
 * bans only on an explicit second button (a ban is not undone from the stream).
 */
export function BanForm({
  author,
  onCancel,
  onBanned,
}: {
  author: Author;
  onCancel(): void;
  onBanned(username: string): void;
}) {
  const { t } = useStreamEnv();
  const [message, setMessage] = useState('');
  const [, ban] = useMutation(BAN_USER_MUTATION);
  const action = useAction();
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <form
      class="parley-form parley-ban"
      aria-label={t('moderation.ban.title', { username: author.username })}
      onKeyDown={(event) => event.key === 'Escape' && onCancel()}
      onSubmit={async (event) => {
        event.preventDefault();
        const text = message.trim();
        const input = text === '' ? { userId: author.id } : { userId: author.id, message: text };
        if (await action.run(() => ban({ input }))) onBanned(author.username);
      }}
    >
      <p>{t('moderation.ban.confirm', { username: author.username })}</p>
      <label>
        {t('moderation.ban.message')}
        <textarea ref={field} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
      </label>
      <button type="submit" class="parley-danger" disabled={action.busy}>
        {t('moderation.ban.submit', { username: author.username })}
      </button>{' '}
      <button type="button" onClick={onCancel}>
        {t('moderation.ban.cancel')}
      </button>
      <ActionStatus state={action.state} success="" />
    </form>
  );
}
