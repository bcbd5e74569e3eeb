import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
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

/** The pre-moderation choices, in the order shown, with their labels' catalog keys. */
const PREMOD_CHOICES: [PremodMode, ConsoleMessageKey][] = [
  ['OFF', 'console.configure.moderation.premod.OFF'],
  ['ALL', 'console.configure.moderation.premod.ALL'],
  ['LINKS', 'console.configure.moderation.premod.LINKS'],
  ['NEW_COMMENTERS', 'console.configure.moderation.premod.NEW_COMMENTERS'],
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
  const t = useT();
  const premodError = form.errorFor('premod');
  return (
    <form onSubmit={form.submit} noValidate aria-labelledby="configure-title">
      <fieldset aria-describedby={premodError !== null ? `${fieldId('premod')}-error` : undefined}>
        <legend>{t('console.configure.moderation.premod')}</legend>
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
            {t(label)}
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
            label={t('console.configure.moderation.newCommenterApprovals')}
            type="number"
            min={0}
            max={100}
            hint={t('console.configure.moderation.newCommenterApprovalsHint')}
          />
        )}
      </fieldset>
      <TextField
        form={form}
        name="reportThreshold"
        label={t('console.configure.moderation.reportThreshold')}
        type="number"
        min={1}
        max={1000}
        hint={t('console.configure.moderation.reportThresholdHint')}
      />
      <TextAreaField
        form={form}
        name="bannedWords"
        label={t('console.configure.moderation.bannedWords')}
        hint={t('console.configure.moderation.bannedWordsHint')}
      />
      <TextAreaField
        form={form}
        name="suspectWords"
        label={t('console.configure.moderation.suspectWords')}
        hint={t('console.configure.moderation.suspectWordsHint')}
      />
      <CheckboxField
        form={form}
        name="spamFilter"
        label={t('console.configure.moderation.spamFilter')}
        hint={t('console.configure.moderation.spamFilterHint')}
      />
      {form.values.spamFilter && (
        <TextField
          form={form}
          name="spamThreshold"
          label={t('console.configure.moderation.spamThreshold')}
          type="number"
          min={50}
          max={99}
          hint={t('console.configure.moderation.spamThresholdHint')}
        />
      )}
      <CheckboxField
        form={form}
        name="liveUpdates"
        label={t('console.configure.moderation.liveUpdates')}
        hint={t('console.configure.moderation.liveUpdatesHint')}
      />
      <FormFooter form={form} />
    </form>
  );
}
