/** Something loaded on first use: its promise, and its value once it is there. */
export interface Lazy<T> {
  /** Starts loading on the first call; every call returns the same promise. */
  get(): Promise<T>;
  /** The loaded value, or undefined before it is loaded. */
  readonly value: T | undefined;
  /** Whether loading has started. */
  readonly started: boolean;
}

/**
 * Defers `load` (typically a dynamic `import()` of a module and a call into it) until first
 * use, once. This is how the transport keeps the socket, the storage backends and the Sentry
 * client out of the widget's first chunk: each arrives when it is first needed.
 */
export function lazily<T>(load: () => Promise<T>): Lazy<T> {
  let promise: Promise<T> | undefined;
  let value: T | undefined;
  return {
    get() {
      // A failed load (a chunk lost to a flaky network) is forgotten, so the next use retries.
      promise ??= load().then(
        (loaded) => (value = loaded),
        (error: unknown) => {
          promise = undefined;
          throw error;
        },
      );
      return promise;
    },
    get value() {
      return value;
    },
    get started() {
      return promise !== undefined;
    },
  };
}
