import type { ConsoleSettings } from './configureQueries';
import { FormFooter, TextField } from './SettingsFields';
import { useSettingsForm, wholeNumber } from './useSettingsForm';

/** The Advanced section's draft. */
export interface AdvancedValues {
  customCssUrl: string;
  auditRetentionDays: string;
}

const fromSettings = (s: ConsoleSettings): AdvancedValues => ({
  customCssUrl: s.customCssUrl,
  auditRetentionDays: String(s.auditRetentionDays ?? 365),
});
const toInput = (v: AdvancedValues) => ({
  customCssUrl: v.customCssUrl.trim(),
  auditRetentionDays: wholeNumber(v.auditRetentionDays, 'auditRetentionDays'),
});

/**
 * Configure › Advanced: a stylesheet the comment stream loads after its own, and how long the
 * audit log keeps its entries.
 */
export function AdvancedSettings({ settings }: { settings: ConsoleSettings }) {
  const form = useSettingsForm({ settings, fromSettings, toInput });
  return (
    <form onSubmit={form.submit} noValidate aria-labelledby="configure-title">
      <TextField
        form={form}
        name="customCssUrl"
        label="Custom CSS URL"
        type="url"
        placeholder="https://example.com/parley.css"
        hint="An https stylesheet for the stream, loaded after its own. Leave empty for none."
      />
      <TextField
        form={form}
        name="auditRetentionDays"
        label="Keep the audit log for"
        type="number"
        min={30}
        max={3650}
        hint="Days (30 to 3650). Older entries are deleted within the hour."
      />
      <FormFooter form={form} />
    </form>
  );
}
