import { graphql } from '@parley/transport/graphql';
import { useT } from '../../i18n';
import { TokenActionPage } from './TokenActionPage';

/** Marks the address of the emailed link's account as confirmed. */
export const CONFIRM_EMAIL_MUTATION = graphql(`
  mutation AccountConfirmEmail($input: TokenInput!) {
    confirmEmail(input: $input) { user { id email emailVerified } }
  }
`);

/**
 * `/account/confirm-email#token=…`. A button rather than confirming on load: mail scanners that
 * open links (and run their scripts) would otherwise use the single-use token first.
 */
export function ConfirmEmailPage() {
  const t = useT();
  return (
    <TokenActionPage
      title={t('console.account.confirmEmail.title')}
      mutation={CONFIRM_EMAIL_MUTATION}
      // How to get a link that works, for a link that does not.
      again={t('console.account.confirmEmail.again')}
      intro={<p>{t('console.account.confirmEmail.intro')}</p>}
      action={t('console.account.confirmEmail.action')}
      done={(data) => {
        const email = data.confirmEmail.user?.email;
        return (
          <p role="status" className="success">
            {email == null
              ? t('console.account.confirmEmail.doneNoAddress')
              : t('console.account.confirmEmail.done', { email })}
          </p>
        );
      }}
    />
  );
}
