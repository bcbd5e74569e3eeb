import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Transport } from '@parley/transport';
import type { Session } from './createSession';
import type { HostBridge } from './hostBridge';
import type { ThreadStore } from './createThreadStore';
import type { Translate } from './i18n/createTranslator';
import type { MessageKey } from './messages';
import type { FrameParams } from './params';
import type { ResultOf } from '@parley/transport/graphql';
import type { STREAM_QUERY } from './App';
import type { CommentData, Connection } from './CommentView';
import type { FocusedComment } from './usePermalink';

type StreamQueryResult = ResultOf<typeof STREAM_QUERY>;

/** The signed-in user, as the stream reads them. */
export type Viewer = NonNullable<StreamQueryResult['viewer']>;

/** The organization's settings the stream reads. */
export type StreamSettings = StreamQueryResult['settings'];

/** The story the frame shows; its first page of comments is a page like any other. */
export type StoryData = Omit<NonNullable<StreamQueryResult['story']>, 'comments'> & {
  comments: Connection<CommentData>;
};

/** True for moderators and admins. */
export function isModerator(viewer: Pick<Viewer, 'role'> | null | undefined): boolean {
  return viewer?.role === 'MODERATOR' || viewer?.role === 'ADMIN';
}

/**
 * Everything a component of the frame needs from outside it: injected (window, storage through
 * the transport, the host bridge) so components stay testable inside and outside frames.
 */
export interface StreamEnv {
  /** The network layer (urql client, storage, socket status). */
  transport: Transport;
  /** The frame's parameters from the loader. */
  params: FrameParams;
  /** Messages to and from the host page. */
  bridge: HostBridge;
  /** The signed-in state. */
  session: Session;
  /** Translates a message key. */
  t: Translate<MessageKey>;
  /** The frame's window (popups, history, timers). */
  window: Window;
  /** Comments this reader wrote in this page view (optimistic, queued, held). */
  thread: ThreadStore;
  /**
   * The root query's answer the server rendered the page with (see ssr.tsx), if it did; with the
   * permalinked comment when the page showed it above the thread (it was not on the first page).
   */
  initial?: StreamQueryResult & { permalink?: FocusedComment };
}

/** What the root query loaded, for every part of the thread. */
export interface StreamData {
  /** The signed-in user, or null. */
  viewer: Viewer | null;
  /** Organization settings. */
  settings: StreamSettings;
  /** The story. */
  story: StoryData;
  /** Runs the root query again from the network (after sign-in, a moderation change…). */
  refetch(): void;
}

/** The injected environment. */
export const StreamEnvContext = createContext<StreamEnv | null>(null);

/** The root query's data. */
export const StreamDataContext = createContext<StreamData | null>(null);

/** The injected environment; throws outside the provider (a wiring mistake). */
export function useStreamEnv(): StreamEnv {
  const env = useContext(StreamEnvContext);
  if (env === null) throw new Error('[parley] useStreamEnv outside StreamEnvContext');
  return env;
}

/** The root query's data; throws outside the provider. */
export function useStreamData(): StreamData {
  const data = useContext(StreamDataContext);
  if (data === null) throw new Error('[parley] useStreamData outside StreamDataContext');
  return data;
}
