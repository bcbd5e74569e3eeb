import type { ComponentChildren } from 'preact';
import type { TransportError } from '@parley/transport';
import type { PopupEnv } from './PopupEnv';

/** Props of {@link AuthForm}. */
export interface AuthFormFrameProps {
  /** The popup's environment. */
  env: PopupEnv;
  /** Text of the submit button (its accessible name). */
  submitLabel: string;
  /** A request is in flight: the button is disabled and the form marked busy. */
  busy: boolean;
  /** The last request's coded error, shown next to the form. */
  error: TransportError | null;
  /** Called on submit (the browser's own validation bubbles are off; the fields say it inline). */
  onSubmit(): void;
  /** The fields. */
  children: ComponentChildren;
}

/** The frame of every popup form: fields, the submit button, and the server's error by code. */
export function AuthForm({
  env,
  submitLabel,
  busy,
  error,
  onSubmit,
  children,
}: AuthFormFrameProps) {
  const { t } = env;
  const seconds = error?.extensions.retryAfterSeconds;
  return (
    <form
      class="parley-auth-form"
      noValidate
      aria-busy={busy}
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onSubmit();
      }}
    >
      {children}
      <button type="submit" class="parley-primary" disabled={busy}>
        {submitLabel}
      </button>
      {/* Always in the document, so screen readers announce the text when it appears. */}
      <p class="parley-auth-error" role="alert">
        {error &&
          t(
            `error.${error.code}`,
            typeof seconds === 'number' ? { seconds, count: seconds } : undefined,
          )}
      </p>
    </form>
  );
}
