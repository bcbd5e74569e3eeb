import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useQuery } from '@urql/preact';
import { toTransportError } from '@parley/transport';
import { useStreamEnv } from '../StreamContext';
import { withAccountErrors } from '../messages/withAccountErrors';
import { messages as profile } from '../messages/en/profile';
import { AvatarForm } from './AvatarForm';
import { EmailForm, PasswordForm, UsernameForm } from './AccountForms';
import { ConfirmEmail } from './ConfirmEmail';
import { ClaimGuestComments } from './ClaimGuestComments';
import { DeleteAccount } from './DeleteAccount';
import { DownloadData } from './DownloadData';
import { SignOutEverywhere } from './SignOutEverywhere';
import { SignInProviders } from './SignInProviders';
import { RepliesFeed } from './RepliesFeed';
import { IgnoredUsers } from './IgnoredUsers';
import { MyComments } from './MyComments';
import type { NotificationSettings } from './NotificationsForm';
import { NotificationsForm } from './NotificationsForm';

/**
 * The profile area's text, with the errors only account forms meet; added to the catalog before
 * the panel renders (LazyPanel).
 */
export const messages = withAccountErrors(profile);

/** What the profile tab shows of the viewer beyond the root query's fields. */
export const PROFILE_QUERY = graphql(`
  query Profile {
    viewer {
      id
      username
      email
      emailVerified
      avatarUrl
      deletionRequestedAt
      notificationSettings {
        onReply
        onFeatured
        onModeration
      }
      ignoredUsers {
        id
        username
      }
      sessions {
        id
        device
        createdAt
        lastUsedAt
        current
      }
      repliesFeedUrl
      hasPassword
      claimableGuestComments
      identities {
        id
        email
        provider {
          id
          name
        }
      }
    }
  }
`);

/** The viewer as the profile tab reads it. */
export type ProfileViewer = NonNullable<ResultOf<typeof PROFILE_QUERY>['viewer']>;

const NO_NOTIFICATIONS: NotificationSettings = {
  onReply: false,
  onFeatured: false,
  onModeration: false,
};

/**
 * The profile tab (its own chunk, loaded when first opened): "Confirm your email" while the
 * address is unconfirmed, the comments to claim from guests who confirmed it, my comments, notifications, the replies feed, name,
 * email, password, avatar, data download, ignored users and account deletion.
 */
export function Panel() {
  const { t } = useStreamEnv();
  const [result, reexecute] = useQuery({
    query: PROFILE_QUERY,
    // Always from the network: every form starts from the values the server holds now.
    requestPolicy: 'network-only',
  });
  const viewer = result.data?.viewer;
  if (!viewer) {
    if (result.fetching) return <p role="status">{t('stream.loading')}</p>;
    const code = result.error ? toTransportError(result.error).code : 'UNAUTHENTICATED';
    return (
      <div class="parley-notice" role="alert">
        <p>{t(`error.${code}`)}</p>
        <button type="button" onClick={() => reexecute({ requestPolicy: 'network-only' })}>
          {t('stream.retry')}
        </button>
      </div>
    );
  }
  return (
    <div class="parley-profile">
      {viewer.email !== null && viewer.emailVerified === false && (
        <ConfirmEmail email={viewer.email} />
      )}
      {(viewer.claimableGuestComments ?? 0) > 0 && (
        <ClaimGuestComments count={viewer.claimableGuestComments ?? 0} />
      )}
      <MyComments />
      <NotificationsForm initial={viewer.notificationSettings ?? NO_NOTIFICATIONS} />
      <RepliesFeed initial={viewer.repliesFeedUrl ?? null} />
      <UsernameForm current={viewer.username} />
      <EmailForm current={viewer.email} />
      <PasswordForm />
      <AvatarForm current={viewer.avatarUrl} />
      <DownloadData />
      <SignInProviders
        connected={viewer.identities ?? []}
        hasPassword={viewer.hasPassword !== false}
        onChanged={() => reexecute({ requestPolicy: 'network-only' })}
      />
      <SignOutEverywhere initial={viewer.sessions ?? []} />
      <IgnoredUsers initial={viewer.ignoredUsers ?? []} />
      <DeleteAccount username={viewer.username} requestedAt={viewer.deletionRequestedAt} />
    </div>
  );
}
