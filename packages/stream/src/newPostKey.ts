/** A new clientMutationId. `crypto.randomUUID` exists only in secure contexts; plain http is not one. */
export function newPostKey(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
        b.toString(16).padStart(2, '0'),
      ).join('');
}
