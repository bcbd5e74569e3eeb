import { splitLines } from './configureQueries';
import type { ConsoleSettings } from './configureQueries';
import { CheckboxField, FormFooter, TextAreaField, TextField } from './SettingsFields';
import { fieldId, useSettingsForm, wholeNumber } from './useSettingsForm';

/** Pre-moderation modes (`PremodMode`). */
type PremodMode = ConsoleSettings['premod'];

/** The Moderation section's draft; word lists are kept as the text typed, one per line. */
export interface ModerationValues {
  premod: PremodMode;
  newCommenterApprovals: string;
  reportThreshold: string;
  bannedWords: string;
  suspectWords: string;
  spamFilter: boolean;
  spamThreshold: string;
  liveUpdates: boolean;
}

/** The pre-moderation choices, in the order shown. */
const PREMOD_CHOICES: [PremodMode, string][] = [
  ['OFF', 'Off: publish at once, moderate afterwards'],
  ['ALL', 'All comments wait for approval'],
  ['LINKS', 'Comments with links wait for approval'],
  ['NEW_COMMENTERS', 'New commenters wait for approval'],
];

function fromSettings(s: ConsoleSettings): ModerationValues {
  return {
    premod: s.premod,
    newCommenterApprovals: String(s.newCommenterApprovals),
    reportThreshold: String(s.reportThreshold),
    bannedWords: (s.bannedWords ?? []).join('\n'),
    suspectWords: (s.suspectWords ?? []).join('\n'),
    spamFilter: s.spamFilter ?? true,
    spamThreshold: String(s.spamThreshold ?? 90),
    liveUpdates: s.liveUpdates,
  };
}

function toInput(v: ModerationValues) {
  return {
    premod: v.premod,
    // Sent whatever the mode, so switching to "new commenters" later keeps the number set here.
    newCommenterApprovals: wholeNumber(v.newCommenterApprovals, 'newCommenterApprovals'),
    reportThreshold: wholeNumber(v.reportThreshold, 'reportThreshold'),
    bannedWords: splitLines(v.bannedWords),
    suspectWords: splitLines(v.suspectWords),
    spamFilter: v.spamFilter,
    // Sent while the filter is off too, so turning it back on keeps the threshold set here.
    spamThreshold: wholeNumber(v.spamThreshold, 'spamThreshold'),
    liveUpdates: v.liveUpdates,
  };
}

/**
 * Configure › Moderation: pre-moderation, the report threshold, word lists, the spam filter,
 * live updates.
 */
export function ModerationSettings({ settings }: { settings: ConsoleSettings }) {
  const form = useSettingsForm({ settings, fromSettings, toInput });
  const premodError = form.errorFor('premod');
  return (
    <form onSubmit={form.submit} noValidate aria-labelledby="configure-title">
      <fieldset aria-describedby={premodError !== null ? `${fieldId('premod')}-error` : undefined}>
        <legend>Pre-moderation</legend>
        {PREMOD_CHOICES.map(([mode, label]) => (
          <label key={mode} className="checkbox">
            <input
              type="radio"
              name="premod"
              id={mode === form.values.premod ? fieldId('premod') : undefined}
              value={mode}
              checked={form.values.premod === mode}
              onChange={() => form.set('premod', mode)}
            />
            {label}
          </label>
        ))}
        {premodError !== null && (
          <p id={`${fieldId('premod')}-error`} className="field-error">
            {premodError}
          </p>
        )}
        {form.values.premod === 'NEW_COMMENTERS' && (
          <TextField
            form={form}
            name="newCommenterApprovals"
            label="Approved comments before a commenter is trusted"
            type="number"
            min={0}
            max={100}
            hint="Until then, their comments wait for approval."
          />
        )}
      </fieldset>
      <TextField
        form={form}
        name="reportThreshold"
        label="Report threshold"
        type="number"
        min={1}
        max={1000}
        hint="Reports that take a published comment down for review. A report from an established reader counts as one; unconfirmed accounts count for nothing, new ones for a quarter or a half."
      />
      <TextAreaField
        form={form}
        name="bannedWords"
        label="Banned words"
        hint="One per line, case-insensitive. A comment with one is rejected."
      />
      <TextAreaField
        form={form}
        name="suspectWords"
        label="Suspect words"
        hint="One per line, case-insensitive. A comment with one is published and flagged for review."
      />
      <CheckboxField
        form={form}
        name="spamFilter"
        label="Spam filter"
        hint="Scores every new comment on this server, no third party: what your moderators rejected as spam or approved, known spam phrases, links, brand-new accounts, the same text on other stories. A comment at or above the threshold waits for approval as “Likely spam”."
      />
      {form.values.spamFilter && (
        <TextField
          form={form}
          name="spamThreshold"
          label="Spam threshold (percent)"
          type="number"
          min={50}
          max={99}
          hint="From 50 to 99. Lower holds more comments; the “Spam” button (key s) in the queues teaches the filter."
        />
      )}
      <CheckboxField
        form={form}
        name="liveUpdates"
        label="Live updates"
        hint="New comments appear in open streams without a reload."
      />
      <FormFooter form={form} />
    </form>
  );
}
