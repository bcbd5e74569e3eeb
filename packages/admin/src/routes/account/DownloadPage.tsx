import { useEffect, useMemo } from 'react';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { useT } from '../../i18n';
import { TokenActionPage } from './TokenActionPage';

/** Uses the emailed download link's token (once) and answers everything the user wrote. */
export const DOWNLOAD_COMMENTS_MUTATION = graphql(`
  mutation AccountDownloadComments($input: TokenInput!) {
    downloadCommentsData(input: $input) {
      username generatedAt
      comments { id storyUrl body status createdAt editedAt }
    }
  }
`);

/**
 * `/account/download#token=…`. The token works once, so the answer is kept as a file in memory
 * that can be saved again from this page as often as needed.
 */
export function DownloadPage() {
  const t = useT();
  return (
    <TokenActionPage
      title={t('console.account.download.title')}
      mutation={DOWNLOAD_COMMENTS_MUTATION}
      // How to get a link that works, for a link that does not.
      again={t('console.account.download.again')}
      intro={<p>{t('console.account.download.intro')}</p>}
      action={t('console.account.download.action')}
      done={(data) => <SaveFile data={data.downloadCommentsData} />}
    />
  );
}

function SaveFile({
  data,
}: {
  data: ResultOf<typeof DOWNLOAD_COMMENTS_MUTATION>['downloadCommentsData'];
}) {
  const { window: win } = useConsoleEnv();
  const t = useT();
  // The injected window's constructors: the page's own, or a test's.
  const { URL: Url, Blob: FileBlob } = win as unknown as typeof globalThis;
  const href = useMemo(() => {
    const json = JSON.stringify(data, null, 2);
    // A Blob URL, not a data: URL: browsers cap data: URLs at a few MB, and a long-time
    // commenter's file can be larger.
    return Url.createObjectURL(new FileBlob([json], { type: 'application/json' }));
  }, [data, Url, FileBlob]);
  // The object URL holds the whole file in memory until revoked.
  useEffect(() => () => Url.revokeObjectURL(href), [href, Url]);
  const count = data.comments.length;
  const name = `parley-comments-${data.username}.json`;
  return (
    <>
      <p role="status" className="success">
        {t('console.account.download.ready', { count })}
      </p>
      <p>
        <a className="button primary" href={href} download={name}>
          {t('console.account.download.save', { name })}
        </a>
      </p>
      <p className="hint">{t('console.account.download.hint')}</p>
    </>
  );
}
