import { HOST_TO_FRAME, createMessage, readMessage } from '@parley/contract';
import type { FrameToHost, HostToFrame } from '@parley/contract';

/** The frame's side of the host protocol. */
export interface HostBridge {
  /** Posts to the host page at its exact origin (nothing when there is no host). */
  send<K extends keyof FrameToHost>(type: K, payload: FrameToHost[K]): void;
  /** Listens to one message type from the host; returns the unsubscribe function. */
  on<K extends keyof HostToFrame>(type: K, listener: (payload: HostToFrame[K]) => void): () => void;
  /** Removes the window listener. */
  dispose(): void;
}

/** Options of {@link createHostBridge}. */
export interface HostBridgeOptions {
  /** The frame's window (injected so tests can use their own). */
  window: Window;
  /** The host's exact origin, from the stream params; '' means no host. */
  origin: string;
}

/**
 * Creates the bridge. Messages are accepted only from the parent window and from `origin`, and
 * only in a known shape (a message from elsewhere is dropped unread); a frame opened directly
 * talks to no one.
 */
export function createHostBridge({ window: win, origin }: HostBridgeOptions): HostBridge {
  const listeners = new Map<keyof HostToFrame, Set<(payload: never) => void>>();
  const host = win.parent !== win && origin !== '' ? win.parent : null;
  const onMessage = (event: MessageEvent) => {
    if (host === null || event.source !== host || event.origin !== origin) return;
    const message = readMessage(HOST_TO_FRAME, event.data);
    if (message === undefined) return;
    for (const listener of listeners.get(message.type) ?? []) listener(message.payload as never);
  };
  win.addEventListener('message', onMessage);
  return {
    send(type, payload) {
      host?.postMessage(createMessage<FrameToHost, typeof type>(type, payload), origin);
    },
    on(type, listener) {
      const set = listeners.get(type) ?? new Set();
      listeners.set(type, set);
      set.add(listener as (payload: never) => void);
      return () => void set.delete(listener as (payload: never) => void);
    },
    dispose() {
      win.removeEventListener('message', onMessage);
      listeners.clear();
    },
  };
}
