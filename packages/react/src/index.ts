// @parley/react: Parley in a React app. Importing it touches no browser global, so a server
// render (Next.js, Remix, Astro islands) can import and render it; the thread and the counts load
// in the browser, after hydration.
export { ParleyThread } from './ParleyThread';
export type { ParleyThreadProps } from './ParleyThread';
export { ParleyCount } from './ParleyCount';
export type { ParleyCountProps } from './ParleyCount';
export type { StreamEmbed, StreamEventHandler, Theme } from '@parley/embed';
