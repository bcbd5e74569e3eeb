import { ACCOUNT_PATHS } from '@parley/contract';
import { Route, Switch } from 'wouter';
import { useT } from '../../i18n';
import { AccountFrame } from './AccountFrame';
import { ConfirmEmailPage } from './ConfirmEmailPage';
import { DeletionPage } from './DeletionPage';
import { DownloadPage } from './DownloadPage';
import { ModerationLinkPage } from './ModerationLinkPage';
import { AcceptInvitePage, ResetPasswordPage } from './ResetPasswordPage';
import { UnsubscribePage } from './UnsubscribePage';

/**
 * `/account/*`: the pages reached from account emails. Public: each is authorized by its link's
 * token (or, for `/account`, by signing in there), never by the console's session.
 */
export function AccountPage() {
  const t = useT();
  return (
    <Switch>
      <Route path={ACCOUNT_PATHS.confirmEmail}>
        <ConfirmEmailPage />
      </Route>
      <Route path={ACCOUNT_PATHS.resetPassword}>
        <ResetPasswordPage />
      </Route>
      <Route path={ACCOUNT_PATHS.acceptInvite}>
        <AcceptInvitePage />
      </Route>
      <Route path={ACCOUNT_PATHS.download}>
        <DownloadPage />
      </Route>
      <Route path={ACCOUNT_PATHS.unsubscribe}>
        <UnsubscribePage />
      </Route>
      <Route path={ACCOUNT_PATHS.moderate}>
        <ModerationLinkPage />
      </Route>
      <Route path={ACCOUNT_PATHS.settings}>
        <DeletionPage />
      </Route>
      <Route>
        <AccountFrame title={t('console.account.notFound.title')}>
          <p>{t('console.account.notFound.text')}</p>
        </AccountFrame>
      </Route>
    </Switch>
  );
}
