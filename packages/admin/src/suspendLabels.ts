import type { SuspendPresetHours } from '@parley/contract';
import type { ConsoleMessageKey } from './i18n';

/**
 * The catalog keys of the console's words for each suspension length of `SUSPEND_PRESETS_HOURS`
 * (@parley/contract), shared by the community table and the moderation drawer (`t(key)`); a preset
 * without words fails to compile.
 */
export const SUSPEND_LABELS: Readonly<Record<SuspendPresetHours, ConsoleMessageKey>> = {
  1: 'console.shell.suspend.1',
  24: 'console.shell.suspend.24',
  168: 'console.shell.suspend.168',
};
