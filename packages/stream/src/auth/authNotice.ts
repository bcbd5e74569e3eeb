import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../createSession';
import type { MessageVars } from '../i18n/createTranslator';
import type { MessageKey } from '../messages';

/** A message about signing in that the auth bar shows (popup blocked, SSO expired, session ended). */
export interface AuthNotice {
  /** Catalog key of the text. */
  key: MessageKey;
  /** Its placeholders. */
  vars?: MessageVars;
}

interface NoticeStore {
  notice: AuthNotice | null;
  listeners: Set<(notice: AuthNotice | null) => void>;
}

// Kept per session rather than in the auth bar's state: the stream remounts on every session
// change (and is not mounted at all while its first query runs), and "your session ended, sign in
// again" is raised exactly around such a change, so it must outlive the component that shows it.
const stores = new WeakMap<Session, NoticeStore>();

function storeOf(session: Session): NoticeStore {
  let store = stores.get(session);
  if (!store) stores.set(session, (store = { notice: null, listeners: new Set() }));
  return store;
}

/** Shows `notice` in the auth bar of this session's frame (`null` clears it). */
export function setAuthNotice(session: Session, notice: AuthNotice | null): void {
  const store = storeOf(session);
  store.notice = notice;
  for (const listener of store.listeners) listener(notice);
}

/** The notice to show now; re-renders when it changes. */
export function useAuthNotice(session: Session): AuthNotice | null {
  const [notice, setNotice] = useState(() => storeOf(session).notice);
  useEffect(() => {
    const { listeners, notice: current } = storeOf(session);
    // A notice set between the first render and this effect is not missed.
    setNotice(current);
    listeners.add(setNotice);
    return () => void listeners.delete(setNotice);
  }, [session]);
  return notice;
}
