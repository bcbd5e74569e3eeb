import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import type { ErrorCode } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { useErrorText, useFieldErrorText } from '../../errorText';
import { useT } from '../../i18n';
import { InstallDone } from './InstallDone';
import { InstallStepFields, STEP_TEXT } from './InstallStepFields';
import {
  INSTALL_STEPS,
  accountProblemText,
  STEP_FIELDS,
  exampleOrigin,
  fieldOfServerError,
  initialInstallForm,
  installInput,
  stepOf,
  validateStep,
} from './installForm';
import type { InstallErrors, InstallForm } from './installForm';

/** Creates the organization, the first site and the admin; answers the admin's session. */
export const INSTALL_MUTATION = graphql(`
  mutation ConsoleInstall($input: InstallInput!) {
    install(input: $input) { token user { id username } }
  }
`);

/** `/install`: the first-run wizard (App redirects here until it has run, and away after). */
export function InstallWizard() {
  const env = useConsoleEnv();
  const [form, setForm] = useState<InstallForm>(() => initialInstallForm(env.window.location));
  const [index, setIndex] = useState(0);
  const [errors, setErrors] = useState<InstallErrors>({});
  const [failure, setFailure] = useState<ErrorCode | null>(null);
  const [done, setDone] = useState(false);
  const [{ fetching }, install] = useMutation(INSTALL_MUTATION);
  // `fetching` lags one render behind a click; the ref stops a double submit in between, so
  // `install` is sent once (a second one would only answer ALREADY_INSTALLED).
  const sending = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  const t = useT();
  const errorText = useErrorText();
  const fieldErrorText = useFieldErrorText();

  // A new step replaces the form under the keyboard user's focus: move focus to its heading so
  // the step is announced. Not on first render, where the page's own focus order applies.
  useEffect(() => {
    if (firstRender.current) firstRender.current = false;
    else heading.current?.focus();
  }, [index, done]);

  const step = INSTALL_STEPS[index] ?? 'admin';
  const last = index === INSTALL_STEPS.length - 1;

  function change(field: keyof InstallForm, value: string) {
    setForm((previous) => ({ ...previous, [field]: value }));
    // The message stays until the field changes, so it does not flicker while typing elsewhere.
    setErrors(({ [field]: _fixed, ...rest }) => rest);
  }

  function focusField(field: keyof InstallForm) {
    env.window.document.getElementById(`install-${field}`)?.focus();
  }

  async function next(event: FormEvent) {
    event.preventDefault();
    const found = validateStep(step, form, t);
    setErrors(found);
    const firstInvalid = STEP_FIELDS[step].find((field) => found[field] !== undefined);
    if (firstInvalid) {
      focusField(firstInvalid);
      return;
    }
    if (!last) {
      setIndex(index + 1);
      return;
    }
    if (sending.current) return;
    sending.current = true;
    setFailure(null);
    const result = await install({ input: installInput(form) });
    if (!result.data) {
      const error = result.error ? toTransportError(result.error) : null;
      const code = error?.code ?? 'BAD_RESPONSE';
      sending.current = code === 'ALREADY_INSTALLED';
      setFailure(code);
      const field = fieldOfServerError(error?.field);
      if (field && error) {
        // Said in the wizard's language (the server's problem code); the field's step comes back.
        setErrors({
          [field]: accountProblemText(error.extensions['problem'], t) ?? fieldErrorText(error),
        });
        setIndex(INSTALL_STEPS.indexOf(stepOf(field)));
      }
      return;
    }
    await env.session.signIn(result.data.install.token);
    setDone(true);
  }

  if (done) {
    return (
      <main className="page narrow install">
        <InstallDone
          headingRef={heading}
          siteUrl={form.siteUrl.trim()}
          exampleOrigin={exampleOrigin(env.window.location)}
        />
      </main>
    );
  }

  const text = STEP_TEXT[step];
  return (
    <main className="page narrow install">
      <h1>{t('console.install.title')}</h1>
      <ol className="install-steps" aria-label={t('console.install.steps')}>
        {INSTALL_STEPS.map((name, i) => (
          <li key={name} aria-current={i === index ? 'step' : undefined}>
            {t(STEP_TEXT[name].title)}
          </li>
        ))}
      </ol>
      <form onSubmit={(event) => void next(event)} noValidate aria-labelledby="install-heading">
        <h2 id="install-heading" ref={heading} tabIndex={-1}>
          {t('console.install.stepHeading', {
            step: index + 1,
            total: INSTALL_STEPS.length,
            title: t(text.title),
          })}
        </h2>
        <p>{t(text.intro)}</p>
        <InstallStepFields
          fields={STEP_FIELDS[step]}
          form={form}
          errors={errors}
          onChange={change}
        />
        {failure === 'ALREADY_INSTALLED' ? (
          <p role="alert">
            {t('console.install.alreadyInstalled.before')}{' '}
            {/* A full page load: this app still believes Parley is not installed. */}
            <a href="/admin/login">{t('console.install.alreadyInstalled.link')}</a>{' '}
            {t('console.install.alreadyInstalled.after')}
          </p>
        ) : (
          failure && <p role="alert">{errorText(failure)}</p>
        )}
        <div className="actions">
          {index > 0 && (
            <button type="button" onClick={() => setIndex(index - 1)} disabled={fetching}>
              {t('console.install.back')}
            </button>
          )}
          <button
            type="submit"
            className="primary"
            disabled={fetching || failure === 'ALREADY_INSTALLED'}
          >
            {last
              ? fetching
                ? t('console.install.installing')
                : t('console.install.install')
              : t('console.install.next')}
          </button>
        </div>
      </form>
    </main>
  );
}
