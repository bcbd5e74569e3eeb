import type { ConsoleSettings } from './configureQueries';
import { CheckboxField, FormFooter, TextField } from './SettingsFields';
import { useSettingsForm, wholeNumber } from './useSettingsForm';

/** The Advanced section's draft. */
export interface AdvancedValues {
  customCssUrl: string;
  auditRetentionDays: string;
  ipRetentionDays: string;
  webhooksAllowPrivateAddresses: boolean;
}

const fromSettings = (s: ConsoleSettings): AdvancedValues => ({
  customCssUrl: s.customCssUrl,
  auditRetentionDays: String(s.auditRetentionDays ?? 365),
  ipRetentionDays: String(s.ipRetentionDays ?? 30),
  webhooksAllowPrivateAddresses: s.webhooksAllowPrivateAddresses ?? false,
});
const toInput = (v: AdvancedValues) => ({
  customCssUrl: v.customCssUrl.trim(),
  auditRetentionDays: wholeNumber(v.auditRetentionDays, 'auditRetentionDays'),
  ipRetentionDays: wholeNumber(v.ipRetentionDays, 'ipRetentionDays'),
  webhooksAllowPrivateAddresses: v.webhooksAllowPrivateAddresses,
});

/**
 * Configure › Advanced: a stylesheet the comment stream loads after its own, how long the audit
 * log keeps its entries, how long guests' IP addresses are kept, and whether webhooks may reach
 * this server's own network.
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
      <TextField
        form={form}
        name="ipRetentionDays"
        label="Keep guests’ IP addresses for"
        type="number"
        min={1}
        max={365}
        hint="Days after a guest's last comment (1 to 365), then the address is erased within the hour. Moderators ban address ranges from it; only admins see it."
      />
      <CheckboxField
        form={form}
        name="webhooksAllowPrivateAddresses"
        label="Allow webhooks to private addresses"
        hint="Lets webhook endpoints be on loopback, private or link-local addresses, such as a bot on this server's network. Off, a webhook URL cannot make the server reach what only it can."
      />
      <FormFooter form={form} />
    </form>
  );
}
