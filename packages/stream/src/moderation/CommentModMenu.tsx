import { graphql } from '@parley/transport/graphql';
import { useClient } from '@urql/preact';
import type { Client, OperationResult } from '@urql/core';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { CommentFields } from '../CommentView';
import { useAction } from '../panels/useAction';
import { useStreamEnv } from '../StreamContext';
import { messages as en } from '../messages/en/moderation';
import type { MessageKey, MessagesPart } from '../messages';
import type { CommentData } from '../CommentView';
import { BanForm } from './BanForm';

/** The moderation area's text, added to the catalog before the thread shows the menu. */
export const messages: MessagesPart<keyof typeof en> = en;

export const APPROVE_COMMENT = graphql(
  `mutation ApproveComment($input:CommentIdInput!){approveComment(input:$input){comment{...CommentFields}}}`,
  [CommentFields],
);
export const REJECT_COMMENT = graphql(
  `mutation RejectComment($input:RejectCommentInput!){rejectComment(input:$input){comment{...CommentFields}}}`,
  [CommentFields],
);
export const FEATURE_COMMENT = graphql(
  `mutation FeatureComment($input:CommentIdInput!){featureComment(input:$input){comment{...CommentFields}}}`,
  [CommentFields],
);
export const UNFEATURE_COMMENT = graphql(
  `mutation UnfeatureComment($input:CommentIdInput!){unfeatureComment(input:$input){comment{...CommentFields}}}`,
  [CommentFields],
);

export const PIN_COMMENT = graphql(
  `mutation PinComment($input:CommentIdInput!){pinComment(input:$input){comment{...CommentFields}}}`,
  [CommentFields],
);
export const UNPIN_COMMENT = graphql(
  `mutation UnpinComment($input:CommentIdInput!){unpinComment(input:$input){comment{...CommentFields}}}`,
  [CommentFields],
);

type Decision =
  | 'approveComment'
  | 'rejectComment'
  | 'rejectSpam'
  | 'featureComment'
  | 'unfeatureComment'
  | 'pinComment'
  | 'unpinComment';

/** The comment decisions: each sends its mutation and answers the comment as it now is. */
const DECISIONS: Record<
  Decision,
  (client: Client, commentId: string) => Promise<OperationResult<{ comment: CommentData | null }>>
> = {
  approveComment: (client: Client, commentId: string) =>
    client
      .mutation(APPROVE_COMMENT, { input: { commentId } })
      .toPromise()
      .then((result) => ({ ...result, data: result.data?.approveComment })),
  rejectComment: (client: Client, commentId: string) =>
    client
      .mutation(REJECT_COMMENT, { input: { commentId } })
      .toPromise()
      .then((result) => ({ ...result, data: result.data?.rejectComment })),
  // The spam filter learns from it (also from a comment rejected before).
  rejectSpam: (client: Client, commentId: string) =>
    client
      .mutation(REJECT_COMMENT, { input: { commentId, reason: 'SPAM' } })
      .toPromise()
      .then((result) => ({ ...result, data: result.data?.rejectComment })),
  featureComment: (client: Client, commentId: string) =>
    client
      .mutation(FEATURE_COMMENT, { input: { commentId } })
      .toPromise()
      .then((result) => ({ ...result, data: result.data?.featureComment })),
  unfeatureComment: (client: Client, commentId: string) =>
    client
      .mutation(UNFEATURE_COMMENT, { input: { commentId } })
      .toPromise()
      .then((result) => ({ ...result, data: result.data?.unfeatureComment })),
  pinComment: (client: Client, commentId: string) =>
    client
      .mutation(PIN_COMMENT, { input: { commentId } })
      .toPromise()
      .then((result) => ({ ...result, data: result.data?.pinComment })),
  unpinComment: (client: Client, commentId: string) =>
    client
      .mutation(UNPIN_COMMENT, { input: { commentId } })
      .toPromise()
      .then((result) => ({ ...result, data: result.data?.unpinComment })),
};

const DONE: Record<Decision, MessageKey> = {
  approveComment: 'moderation.approved',
  rejectComment: 'moderation.rejected',
  rejectSpam: 'moderation.rejectedSpam',
  featureComment: 'moderation.featured',
  unfeatureComment: 'moderation.unfeatured',
  pinComment: 'moderation.pinned',
  unpinComment: 'moderation.unpinned',
};

/** Props of {@link CommentModMenu}. */
export interface CommentModMenuProps {
  /** The comment the menu acts on. */
  comment: CommentData;
  /** Called after a change: with the server's copy of the comment, or nothing (a ban). */
  onChanged(updated?: CommentData): void;
}

/**
 * A comment's "Moderate" menu (moderators; loaded on demand by the thread): approve, reject,
 * reject as spam, feature or unfeature, pin or unpin (top-level comments), ban the author. A menu button per the ARIA pattern: arrows move between
 * items, Escape closes and gives focus back to the button.
 */
export function CommentModMenu({ comment, onChanged }: CommentModMenuProps) {
  const { t } = useStreamEnv();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [banning, setBanning] = useState(false);
  const [done, setDone] = useState('');
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const action = useAction();
  const client = useClient();

  // Opening moves focus into the menu, as the menu button pattern expects.
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const decide = async (decision: Decision) => {
    close();
    if (action.busy) return;
    setDone('');
    const payload = await action.run(() => DECISIONS[decision](client, comment.id));
    if (payload) {
      setDone(t(DONE[decision]));
      onChanged(payload.comment ?? undefined);
    }
  };

  const featured = comment.tags.includes('FEATURED');
  const items: { label: string; run(): void }[] = [];
  if (comment.status !== 'APPROVED')
    items.push({ label: t('moderation.approve'), run: () => void decide('approveComment') });
  if (comment.status !== 'REJECTED')
    items.push({ label: t('moderation.reject'), run: () => void decide('rejectComment') });
  items.push({ label: t('moderation.rejectSpam'), run: () => void decide('rejectSpam') });
  items.push(
    featured
      ? { label: t('moderation.unfeature'), run: () => void decide('unfeatureComment') }
      : { label: t('moderation.feature'), run: () => void decide('featureComment') },
  );
  // Only a top-level comment is pinned (a reply out of its thread would lose its context).
  if (!comment.parent)
    items.push(
      comment.tags.includes('PINNED')
        ? { label: t('moderation.unpin'), run: () => void decide('unpinComment') }
        : { label: t('moderation.pin'), run: () => void decide('pinComment') },
    );
  if (comment.author)
    items.push({
      label: t('moderation.ban'),
      run: () => {
        setOpen(false);
        setDone('');
        setBanning(true);
      },
    });

  const onMenuKey = (event: KeyboardEvent) => {
    const all = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = all.indexOf(event.target as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      all[(at + step + all.length) % all.length]?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      all[event.key === 'Home' ? 0 : all.length - 1]?.focus();
    }
  };

  return (
    <div
      class="parley-mod-menu"
      // Focus leaving the menu (a click elsewhere, Shift+Tab) closes it, as a native menu does.
      onFocusOut={(event) => {
        if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) {
          setOpen(false);
        }
      }}
    >
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((v) => !v)}
      >
        {t('moderation.menu')}
      </button>
      {open && (
        <ul ref={menu} id={id} role="menu" aria-label={t('moderation.menu')} onKeyDown={onMenuKey}>
          {items.map((item) => (
            <li key={item.label} role="none">
              <button type="button" role="menuitem" tabIndex={-1} onClick={item.run}>
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
      {banning && comment.author && (
        <BanForm
          author={comment.author}
          onCancel={() => {
            setBanning(false);
            button.current?.focus();
          }}
          onBanned={(username) => {
            setBanning(false);
            setDone(t('moderation.banned', { username }));
            onChanged();
          }}
        />
      )}
      {/* Not ActionStatus: a ban succeeds in BanForm, whose own state is gone once it closes. */}
      <p class="parley-action-status" role="status">
        {done}
      </p>
      {action.state.status === 'failed' && (
        <p class="parley-action-error" role="alert">
          {t(`error.${action.state.code}`, action.state.vars)}
        </p>
      )}
    </div>
  );
}
