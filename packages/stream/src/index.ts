export { App, Stream, STREAM_QUERY } from './App';
export type { Tab } from './App';
export { mountStream } from './mountStream';
export type { MountStreamOptions } from './mountStream';
export { createSession, TOKEN_STORAGE_KEY } from './createSession';
export type { Session } from './createSession';
export { createHostBridge } from './hostBridge';
export type { HostBridge, HostBridgeOptions } from './hostBridge';
export { createTranslator, extendCatalog } from './i18n/createTranslator';
export type { Message, MessageVars, PluralMessage, Translate } from './i18n/createTranslator';
export { en as EN_CATALOG, loadCatalog, withMessages } from './messages';
export type {
  AnyMessagesPart,
  Catalog,
  FirstMessageKey,
  LazyMessageKey,
  MessageKey,
  MessagesPart,
} from './messages';
export { readStreamParams, toLocale, SUPPORTED_LOCALES } from './params';
export type { FrameParams, Locale } from './params';
export type * from './types';
export { createThreadStore } from './createThreadStore';
export type { LocalComment, ThreadStore } from './createThreadStore';
export type { StreamEnv, StreamData } from './StreamContext';
export { StreamEnvContext, StreamDataContext, useStreamEnv, useStreamData } from './StreamContext';
