import { graphql } from '@parley/transport/graphql';
import { useT } from '../../i18n';
import { TokenActionPage } from './TokenActionPage';

/** Turns off every notification email of the emailed link's account. */
export const UNSUBSCRIBE_MUTATION = graphql(`
  mutation AccountUnsubscribe($input: TokenInput!) {
    unsubscribe(input: $input) {
      user { id notificationSettings { onReply onFeatured onModeration } }
    }
  }
`);

/**
 * `/account/unsubscribe#token=…`, linked from notification emails. A button rather than acting
 * on load: link scanners in mail systems open links, and must not unsubscribe anyone.
 */
export function UnsubscribePage() {
  const t = useT();
  return (
    <TokenActionPage
      title={t('console.account.unsubscribe.title')}
      mutation={UNSUBSCRIBE_MUTATION}
      // How to get a link that works, for a link that does not.
      again={t('console.account.unsubscribe.again')}
      intro={<p>{t('console.account.unsubscribe.intro')}</p>}
      action={t('console.account.unsubscribe.action')}
      done={() => (
        <p role="status" className="success">
          {t('console.account.unsubscribe.done')}
        </p>
      )}
    />
  );
}
