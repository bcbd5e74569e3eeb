import { useT } from '../../i18n';
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
  const t = useT();
  return (
    <form onSubmit={form.submit} noValidate aria-labelledby="configure-title">
      <TextField
        form={form}
        name="customCssUrl"
        label={t('console.configure.advanced.customCssUrl')}
        type="url"
        placeholder="https://example.com/parley.css"
        hint={t('console.configure.advanced.customCssUrlHint')}
      />
      <TextField
        form={form}
        name="auditRetentionDays"
        label={t('console.configure.advanced.auditRetentionDays')}
        type="number"
        min={30}
        max={3650}
        hint={t('console.configure.advanced.auditRetentionDaysHint')}
      />
      <TextField
        form={form}
        name="ipRetentionDays"
        label={t('console.configure.advanced.ipRetentionDays')}
        type="number"
        min={1}
        max={365}
        hint={t('console.configure.advanced.ipRetentionDaysHint')}
      />
      <CheckboxField
        form={form}
        name="webhooksAllowPrivateAddresses"
        label={t('console.configure.advanced.webhooksAllowPrivateAddresses')}
        hint={t('console.configure.advanced.webhooksAllowPrivateAddressesHint')}
      />
      <FormFooter form={form} />
    </form>
  );
}
