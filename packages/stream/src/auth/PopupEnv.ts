import type { Client } from '@urql/core';
import type { Translate } from '../i18n/createTranslator';
import type { PopupKey } from './popupCatalog';

/** What the popup's components get from outside: injected so they stay testable. */
export interface PopupEnv {
  /** Translates a popup message key. */
  t: Translate<PopupKey>;
  /** The popup's language: sign-ups and sign-ins send it, and the account's emails follow it. */
  locale: string;
  /** The popup's own GraphQL client (no token: the popup is where one is obtained). */
  client: Client;
  /** The popup's window (its opener, close, document). */
  window: Window;
  /**
   * Where the popup was opened from: the story's URL (its site's sign-in providers) and the
   * frame's look, which a provider's pages carry back. Absent: no provider buttons.
   */
  origin?: { story: string; locale: string; theme: string };
}

/** Props of each form of the popup. */
export interface AuthFormProps {
  /** The popup's environment. */
  env: PopupEnv;
  /** Called with the Parley token once signed in or signed up. */
  onToken(token: string): void;
}
