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
    throw new FieldProblem('sessionHours', 'Enter a number of hours.');
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
          label="Sign-up open"
          hint="When closed, only existing accounts (and SSO users) can comment."
        />
        <CheckboxField
          form={shown}
          name="guestComments"
          label="Guest comments"
          hint="Off by default. Readers may comment with a name and an optional email, without an account. A guest's name cannot be, or look like, a member's username; guests post, edit and delete their comments and nothing else (no reactions, reports or images); per network, 10 new guests an hour and 10 guest comments per 10 minutes. Ban a guest's network from their drawer in Community. Replies are emailed only once a guest confirms their address, and a reader who later signs up with that address can claim the comments."
        />
        <CheckboxField
          form={shown}
          name="guestPremod"
          label="Pre-moderate guests"
          hint="On by default: guests' comments wait in Pending (reason: written by a guest) until a moderator approves them."
        />
        <TextField
          form={shown}
          name="sessionHours"
          label="Session length"
          type="number"
          min={0.1}
          step="any"
          hint="Hours a sign-in lasts (720 is 30 days); at least 5 minutes."
        />
        <CheckboxField
          form={shown}
          name="requireStaffTwoFactor"
          label="Require two-factor sign-in for staff"
          hint="Moderators and admins without it can only set it up (under Security) until they do. Turn it on for your own account first."
        />
        <FormFooter form={shown} />
      </form>
      <SignInProviderSettings />
    </>
  );
}
