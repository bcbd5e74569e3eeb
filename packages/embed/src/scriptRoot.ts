/**
 * The Parley server's root URL (no trailing slash) from the URL of the running script `file`
 * (`embed.js`, `count.js`): the folder it was loaded from, so a server under a path keeps it.
 *
 * `document.currentScript` is the running classic script, but it is null in callbacks and in some
 * async or injected-script cases, so the fallback is the last `<script>` whose src names the file
 * (a site includes it once). `||`, not `??`: an inline script's src is ''.
 */
export function scriptRoot(doc: Document, file: string): string | undefined {
  return (
    (doc.currentScript as HTMLScriptElement | null)?.src ||
    [...doc.querySelectorAll<HTMLScriptElement>(`script[src*="/${file}"]`)].pop()?.src
  )?.replace(/\/[^/?]*(\?.*)?$/, '');
}
