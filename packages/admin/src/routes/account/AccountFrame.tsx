import type { ReactNode } from 'react';
import type { ErrorCode } from '@parley/transport';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';

/** The frame of every account page: the page's heading above its content. */
export function AccountFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="page narrow account">
      <p className="brand">Parley</p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

/**
 * Why an emailed link did not work, in words that say what to do next. `code` is null when the
 * address has no token at all (cut off by a mail client, or typed by hand).
 */
export function TokenProblem({
  code,
  again,
}: {
  /** The error's code, or null for a link without a token. */
  code: ErrorCode | null;
  /** How to get a fresh link, e.g. "Ask for a new reset link from the sign-in form." */
  again: string;
}) {
  const t = useT();
  const errorText = useErrorText();
  let text: string;
  if (code === null) {
    text = t('console.account.token.incomplete');
  } else if (code === 'TOKEN_EXPIRED') {
    text = t('console.account.token.expired');
  } else if (code === 'TOKEN_INVALID') {
    text = t('console.account.token.invalid');
  } else {
    text = errorText(code);
  }
  const linkProblem = code === null || code === 'TOKEN_EXPIRED' || code === 'TOKEN_INVALID';
  return (
    <div className="token-problem">
      <p role="alert">{text}</p>
      {linkProblem && <p>{again}</p>}
    </div>
  );
}
