import { useT } from '../../i18n';
import type { ConsoleSettings } from './configureQueries';
import { CheckboxField, FormFooter, TextField } from './SettingsFields';
import { FieldProblem, useSettingsForm } from './useSettingsForm';
import { SignInProviderSettings } from './SignInProviderSettings';

/** Seconds in an hour: the session length is edited in hours. */
const HOUR_SECONDS = 3600;

/** The Authentication section's draft. */
export interface AuthenticationValues {
  signUpOpen: boolean;
  guestComments: boolean;
  guestPremod: boolean;
  sessionHours: string;
  requireStaffTwoFactor: boolean;
}

function fromSettings(s: ConsoleSettings): AuthenticationValues {
  return {
    signUpOpen: s.signUpOpen,
    guestComments: s.guestComments,
    guestPremod: s.guestPremod,
    // Hours with up to two decimals: the server's minimum of 300 s is 0.08 h.
    sessionHours: String(Math.round((s.sessionSeconds / HOUR_SECONDS) * 100) / 100),
    requireStaffTwoFactor: s.requireStaffTwoFactor ?? false,
  };
}

function toInput(v: AuthenticationValues) {
  const hours = Number(v.sessionHours);
  if (v.sessionHours.trim() === '' || !Number.isFinite(hours)) {
    throw new FieldProblem('sessionHours', 'console.configure.authentication.sessionHoursInvalid');
  }
  return {
    signUpOpen: v.signUpOpen,
    guestComments: v.guestComments,
    guestPremod: v.guestPremod,
    sessionSeconds: Math.round(hours * HOUR_SECONDS),
    requireStaffTwoFactor: v.requireStaffTwoFactor,
  };
}

/**
 * Configure › Authentication: whether anyone may sign up, whether guests may comment (and wait
 * for a moderator), how long a session lasts, whether staff must use two-factor sign-in; and the
 * sign-in providers (SignInProviderSettings).
 */
export function AuthenticationSettings({ settings }: { settings: ConsoleSettings }) {
  const form = useSettingsForm({ settings, fromSettings, toInput });
  const t = useT();
  // The server names `sessionSeconds`; this form edits it as `sessionHours`.
  const shown = {
    ...form,
    errorFor: (name: string) =>
      form.errorFor(name) ?? (name === 'sessionHours' ? form.errorFor('sessionSeconds') : null),
  };
  return (
    <>
      <form onSubmit={form.submit} noValidate aria-labelledby="configure-title">
        <CheckboxField
          form={shown}
          name="signUpOpen"
          label={t('console.configure.authentication.signUpOpen')}
          hint={t('console.configure.authentication.signUpOpenHint')}
        />
        <CheckboxField
          form={shown}
          name="guestComments"
          label={t('console.configure.authentication.guestComments')}
          hint={t('console.configure.authentication.guestCommentsHint')}
        />
        <CheckboxField
          form={shown}
          name="guestPremod"
          label={t('console.configure.authentication.guestPremod')}
          hint={t('console.configure.authentication.guestPremodHint')}
        />
        <TextField
          form={shown}
          name="sessionHours"
          label={t('console.configure.authentication.sessionHours')}
          type="number"
          min={0.1}
          step="any"
          hint={t('console.configure.authentication.sessionHoursHint')}
        />
        <CheckboxField
          form={shown}
          name="requireStaffTwoFactor"
          label={t('console.configure.authentication.requireStaffTwoFactor')}
          hint={t('console.configure.authentication.requireStaffTwoFactorHint')}
        />
        <FormFooter form={shown} />
      </form>
      <SignInProviderSettings />
    </>
  );
}
