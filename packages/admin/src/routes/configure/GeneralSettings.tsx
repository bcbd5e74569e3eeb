import { REACTION_LABEL_MAX_LENGTH, SUPPORTED_LOCALES } from '@parley/contract';
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
  return (
    <form onSubmit={form.submit} noValidate aria-labelledby="configure-title">
      <GuidelinesField form={form} savedHtml={settings.guidelinesHtml} />
      <fieldset>
        <legend>Comments</legend>
        <TextField
          form={form}
          name="maxCommentLength"
          label="Maximum comment length"
          type="number"
          min={1}
          max={20000}
          hint="Characters, 1 to 20,000."
        />
        <TextField
          form={form}
          name="editWindowSeconds"
          label="Edit window"
          type="number"
          min={0}
          max={86400}
          hint="Seconds after posting during which the author may edit; 0 for never."
        />
        <TextField
          form={form}
          name="closeAfterDays"
          label="Close comments after"
          type="number"
          min={0}
          hint="Days after which a story closes to new comments; 0 keeps stories open."
        />
      </fieldset>
      <fieldset>
        <legend>Stream</legend>
        <TextField
          form={form}
          name="reactionLabel"
          label="Reaction label"
          maxLength={REACTION_LABEL_MAX_LENGTH}
          hint="The text of the reaction button, e.g. Respect. Empty: Like / Liked, in the reader's language."
        />
        <CheckboxField form={form} name="featuredTab" label="Show the Featured tab" />
        <CheckboxField
          form={form}
          name="downVotes"
          label="Up and down votes"
          hint="Readers vote comments up or down and see the score; the Best sort ranks by the share of up votes, weighed by how many voted. Off: a Like button only (the reaction label above). Down votes cast stay counted if you turn this off."
        />
        <CheckboxField
          form={form}
          name="commentImages"
          label="Images in comments"
          hint="Signed-in readers add images to their comments (Image button, paste or drop): PNG, JPEG, WebP or GIF up to 2.5 MB, stored here re-encoded as WebP at most 1600 px wide, without camera or location data. Only images uploaded here are shown; a link to another site's image stays a link. Off: image syntax stays text."
        />
        <SelectField
          form={form}
          name="locale"
          label="Language of the comments"
          hint="The language of the comment threads on every page. Each page's own: the language its lang attribute names (<html lang=…>), English when Parley has none for it. A thread's data-locale option comes first."
          options={localeOptions(form.values.locale)}
        />
      </fieldset>
      <FormFooter form={form} />
    </form>
  );
}

/**
 * The widget's languages, each named in itself ("Français (fr)"), after "each page's own" (empty);
 * a tag saved before (`fr-CA`, which the widget shows in French) stays choosable as it is.
 */
export function localeOptions(current: string): { value: string; label: string }[] {
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
  return [{ value: '', label: "Each page's own language" }, ...tags.map(named)];
}
