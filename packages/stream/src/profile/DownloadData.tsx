import { graphql } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from '../panels/ActionStatus';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';

/** Asks the server to email a link to the viewer's data. */
export const REQUEST_DOWNLOAD_MUTATION = graphql(`
  mutation RequestCommentsDownload {
    requestCommentsDownload {
      ok
    }
  }
`);

/**
 * "Download my data". The data is sent as an emailed link rather than downloaded here: the link
 * proves the request came from the mailbox owner, not just from a session in some browser.
 */
export function DownloadData() {
  const { t } = useStreamEnv();
  const [, request] = useMutation(REQUEST_DOWNLOAD_MUTATION);
  const action = useAction();
  return (
    <PanelSection title={t('profile.download.title')}>
      <form
        class="parley-form"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(() => request({}));
        }}
      >
        <p>{t('profile.download.intro')}</p>
        <button type="submit" disabled={action.busy}>
          {t('profile.download.submit')}
        </button>
        <ActionStatus state={action.state} success={t('profile.download.sent')} />
      </form>
    </PanelSection>
  );
}
