import { REACTION_LABEL_MAX_LENGTH, SUPPORTED_LOCALES } from '@parley/contract';
import type { Translate } from '@parley/contract';
import { ENGLISH, useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import type { ConsoleSettings } from './configureQueries';
import { GuidelinesField } from './GuidelinesField';
import { CheckboxField, FormFooter, SelectField, TextField } from './SettingsFields';
import { useSettingsForm, wholeNumber } from './useSettingsForm';

/** The General section's draft; numbers are kept as the text typed. */
export interface GeneralValues {
  guidelines: string;
  maxCommentLength: string;
  editWindowSeconds: string;
  closeAfterDays: string;
  reactionLabel: string;
  featuredTab: boolean;
  /** Up and down votes (voting UP_DOWN) instead of likes only (LIKE). */
  downVotes: boolean;
  commentImages: boolean;
  locale: string;
}

function fromSettings(s: ConsoleSettings): GeneralValues {
  return {
    guidelines: s.guidelines,
    maxCommentLength: String(s.maxCommentLength),
    editWindowSeconds: String(s.editWindowSeconds),
    closeAfterDays: String(s.closeAfterDays),
    reactionLabel: s.reactionLabel,
    featuredTab: s.featuredTab,
    downVotes: s.voting === 'UP_DOWN',
    commentImages: s.commentImages,
    locale: s.locale,
  };
}

function toInput(v: GeneralValues) {
  return {
    guidelines: v.guidelines,
    maxCommentLength: wholeNumber(v.maxCommentLength, 'maxCommentLength'),
    editWindowSeconds: wholeNumber(v.editWindowSeconds, 'editWindowSeconds'),
    closeAfterDays: wholeNumber(v.closeAfterDays, 'closeAfterDays'),
    reactionLabel: v.reactionLabel,
    featuredTab: v.featuredTab,
    voting: v.downVotes ? ('UP_DOWN' as const) : ('LIKE' as const),
    commentImages: v.commentImages,
    locale: v.locale,
  };
}

/**
 * Configure › General: guidelines, comment limits, the reaction label, the featured tab, voting,
 * images in comments, locale.
 */
export function GeneralSettings({ settings }: { settings: ConsoleSettings }) {
  const form = useSettingsForm({ settings, fromSettings, toInput });
  const t = useT();
  return (
    <form onSubmit={form.submit} noValidate aria-labelledby="configure-title">
      <GuidelinesField form={form} savedHtml={settings.guidelinesHtml} />
      <fieldset>
        <legend>{t('console.configure.general.comments')}</legend>
        <TextField
          form={form}
          name="maxCommentLength"
          label={t('console.configure.general.maxCommentLength')}
          type="number"
          min={1}
          max={20000}
          hint={t('console.configure.general.maxCommentLengthHint')}
        />
        <TextField
          form={form}
          name="editWindowSeconds"
          label={t('console.configure.general.editWindow')}
          type="number"
          min={0}
          max={86400}
          hint={t('console.configure.general.editWindowHint')}
        />
        <TextField
          form={form}
          name="closeAfterDays"
          label={t('console.configure.general.closeAfterDays')}
          type="number"
          min={0}
          hint={t('console.configure.general.closeAfterDaysHint')}
        />
      </fieldset>
      <fieldset>
        <legend>{t('console.configure.general.stream')}</legend>
        <TextField
          form={form}
          name="reactionLabel"
          label={t('console.configure.general.reactionLabel')}
          maxLength={REACTION_LABEL_MAX_LENGTH}
          hint={t('console.configure.general.reactionLabelHint')}
        />
        <CheckboxField
          form={form}
          name="featuredTab"
          label={t('console.configure.general.featuredTab')}
        />
        <CheckboxField
          form={form}
          name="downVotes"
          label={t('console.configure.general.downVotes')}
          hint={t('console.configure.general.downVotesHint')}
        />
        <CheckboxField
          form={form}
          name="commentImages"
          label={t('console.configure.general.commentImages')}
          hint={t('console.configure.general.commentImagesHint')}
        />
        <SelectField
          form={form}
          name="locale"
          label={t('console.configure.general.locale')}
          hint={t('console.configure.general.localeHint')}
          options={localeOptions(form.values.locale, t)}
        />
      </fieldset>
      <FormFooter form={form} />
    </form>
  );
}

/**
 * The widget's languages, each named in itself ("Français (fr)"), after "each page's own" (empty);
 * a tag saved before (`fr-CA`, which the widget shows in French) stays choosable as it is.
 * `t` says "each page's own" (English by default).
 */
export function localeOptions(
  current: string,
  t: Translate<ConsoleMessageKey> = ENGLISH,
): { value: string; label: string }[] {
  const named = (tag: string) => {
    let name: string | undefined;
    try {
      name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag);
    } catch {
      // A tag this browser cannot name: the tag alone.
    }
    return { value: tag, label: name && name !== tag ? `${name} (${tag})` : tag };
  };
  const tags: string[] = [...SUPPORTED_LOCALES];
  if (current !== '' && !tags.includes(current)) tags.push(current);
  return [{ value: '', label: t('console.configure.general.localePageOwn') }, ...tags.map(named)];
}
