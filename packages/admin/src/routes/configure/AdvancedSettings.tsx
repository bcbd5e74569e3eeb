import type { ConsoleSettings } from './configureQueries';
import { FormFooter, TextField } from './SettingsFields';
import { useSettingsForm } from './useSettingsForm';

/** The Advanced section's draft. */
export interface AdvancedValues {
  customCssUrl: string;
}

const fromSettings = (s: ConsoleSettings): AdvancedValues => ({ customCssUrl: s.customCssUrl });
const toInput = (v: AdvancedValues) => ({ customCssUrl: v.customCssUrl.trim() });

/** Configure › Advanced: a stylesheet the comment stream loads after its own. */
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
      <FormFooter form={form} />
    </form>
  );
}
