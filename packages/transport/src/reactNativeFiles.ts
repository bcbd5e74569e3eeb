/** A file as React Native's FormData takes it: a local URI with its name and MIME type. */
export interface ReactNativeFile {
  /** Local URI, e.g. `file:///…/avatar.png`. */
  uri: string;
  /** File name sent in the multipart part. */
  name: string;
  /** MIME type, e.g. `image/png`. */
  type: string;
}

/** True for a plain `{ uri, name, type }` object of strings (and nothing else). */
export function isReactNativeFile(value: unknown): value is ReactNativeFile {
  if (!value || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) {
    return false;
  }
  const { uri, name, type, ...rest } = value as Record<string, unknown>;
  return (
    typeof uri === 'string' &&
    typeof name === 'string' &&
    typeof type === 'string' &&
    Object.keys(rest).length === 0
  );
}

/**
 * On React Native, returns `variables` with every React Native file object made recognisable to
 * urql's multipart support; elsewhere, or when there is none, the same object.
 *
 * urql's fetchExchange sends a request as multipart only for `File`/`Blob` instances; React
 * Native's FormData, for its part, reads any appended object with a `uri` as a file. So each
 * `{ uri, name, type }` becomes an object that is an instance of `Blob` to urql and still carries
 * its `uri`, `name` and `type` for React Native. Browsers have real Files and never need this.
 */
export function withReactNativeFiles<T>(variables: T): T {
  // Only on React Native: in a browser a `{ uri, name, type }` input is ordinary data (a link, an
  // attachment's metadata), and a browser's FormData would refuse the Blob stand-in.
  if (!isReactNative() || typeof Blob === 'undefined') return variables;
  return convert(variables, new WeakSet()) as T;
}

/** React Native sets `navigator.product`; browsers say 'Gecko'. */
function isReactNative(): boolean {
  return typeof navigator !== 'undefined' && navigator.product === 'ReactNative';
}

function convert(value: unknown, seen: WeakSet<object>): unknown {
  if (isReactNativeFile(value)) {
    // Own properties, defined rather than assigned: Blob.prototype's `type` is a getter with
    // no setter, so assigning it would throw.
    const own = (v: string) => ({ value: v, enumerable: true });
    return Object.create(Blob.prototype, {
      uri: own(value.uri),
      name: own(value.name),
      type: own(value.type),
    }) as Blob;
  }
  if (!value || typeof value !== 'object' || seen.has(value)) return value;
  if (value instanceof Blob) return value;
  seen.add(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => convert(item, seen));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  let changed = false;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = convert(item, seen);
    changed ||= copy[key] !== item;
  }
  return changed ? copy : value;
}
