import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useState } from 'preact/hooks';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from '../panels/ActionStatus';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';

/** Saves the three switches. */
export const UPDATE_NOTIFICATIONS_MUTATION = graphql(`
  mutation UpdateNotificationSettings($input: UpdateNotificationSettingsInput!) {
    updateNotificationSettings(input: $input) {
      user {
        id
        notificationSettings {
          onReply
          onFeatured
          onModeration
        }
      }
    }
  }
`);

/** The email notifications a user can switch on and off. */
export type NotificationSettings = NonNullable<
  NonNullable<
    ResultOf<typeof UPDATE_NOTIFICATIONS_MUTATION>['updateNotificationSettings']['user']
  >['notificationSettings']
>;

const KEYS = ['onReply', 'onFeatured', 'onModeration'] as const;

/** The notification preferences: one checkbox per email, saved together. */
export function NotificationsForm({ initial }: { initial: NotificationSettings }) {
  const { t } = useStreamEnv();
  const [values, setValues] = useState<NotificationSettings>(initial);
  const [, update] = useMutation(UPDATE_NOTIFICATIONS_MUTATION);
  const action = useAction();
  const labels: Record<(typeof KEYS)[number], string> = {
    onReply: t('profile.notifications.onReply'),
    onFeatured: t('profile.notifications.onFeatured'),
    onModeration: t('profile.notifications.onModeration'),
  };
  return (
    <PanelSection title={t('profile.notifications.title')}>
      <form
        class="parley-form"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(() => update({ input: values }));
        }}
      >
        {KEYS.map((key) => (
          <label key={key} class="parley-check">
            <input
              type="checkbox"
              checked={values[key]}
              onChange={(event) => setValues((v) => ({ ...v, [key]: event.currentTarget.checked }))}
            />{' '}
            {labels[key]}
          </label>
        ))}
        <button type="submit" disabled={action.busy}>
          {t('profile.notifications.save')}
        </button>
        <ActionStatus state={action.state} success={t('profile.notifications.saved')} />
      </form>
    </PanelSection>
  );
}
