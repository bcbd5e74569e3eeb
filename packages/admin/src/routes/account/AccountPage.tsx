import { Route, Switch } from 'wouter';
import { AccountFrame } from './AccountFrame';
import { ConfirmEmailPage } from './ConfirmEmailPage';
import { DeletionPage } from './DeletionPage';
import { DownloadPage } from './DownloadPage';
import { AcceptInvitePage, ResetPasswordPage } from './ResetPasswordPage';
import { UnsubscribePage } from './UnsubscribePage';

/**
 * The account pages' paths: the server's `ACCOUNT_PATHS` (packages/server/src/graphql/resolvers/
 * account/accountEmails.ts), which its emails link to with `#token=…`. Change both together.
 */
export const ACCOUNT_PAGE_PATHS = Object.freeze({
  confirmEmail: '/account/confirm-email',
  resetPassword: '/account/reset-password',
  download: '/account/download',
  unsubscribe: '/account/unsubscribe',
  acceptInvite: '/account/accept-invite',
  settings: '/account',
});

/**
 * `/account/*`: the pages reached from account emails. Public: each is authorized by its link's
 * token (or, for `/account`, by signing in there), never by the console's session.
 */
export function AccountPage() {
  return (
    <Switch>
      <Route path={ACCOUNT_PAGE_PATHS.confirmEmail}>
        <ConfirmEmailPage />
      </Route>
      <Route path={ACCOUNT_PAGE_PATHS.resetPassword}>
        <ResetPasswordPage />
      </Route>
      <Route path={ACCOUNT_PAGE_PATHS.acceptInvite}>
        <AcceptInvitePage />
      </Route>
      <Route path={ACCOUNT_PAGE_PATHS.download}>
        <DownloadPage />
      </Route>
      <Route path={ACCOUNT_PAGE_PATHS.unsubscribe}>
        <UnsubscribePage />
      </Route>
      <Route path={ACCOUNT_PAGE_PATHS.settings}>
        <DeletionPage />
      </Route>
      <Route>
        <AccountFrame title="Page not found">
          <p>There is no account page at this address. Open the link from your email again.</p>
        </AccountFrame>
      </Route>
    </Switch>
  );
}
