import type { SuspendPresetHours } from '@parley/contract';

/**
 * The console's words for each suspension length of `SUSPEND_PRESETS_HOURS` (@parley/contract),
 * shared by the community table and the moderation drawer; a preset without words fails to compile.
 */
export const SUSPEND_LABELS: Readonly<Record<SuspendPresetHours, string>> = {
  1: '1 hour',
  24: '24 hours',
  168: '7 days',
};
