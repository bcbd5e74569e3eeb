import type { StreamEnv } from '../StreamContext';

/** Which form the popup opens on. */
export type AuthMode = 'signin' | 'signup' | 'forgot';

/**
 * Opens the sign-in popup (`/embed/auth`). The token comes back by postMessage and is kept by the
 * session; callers only open it. Placeholder until the popup lands (same change set).
 */
export function openAuthPopup(_env: StreamEnv, _mode: AuthMode): void {}
