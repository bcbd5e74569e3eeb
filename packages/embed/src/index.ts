export { createStreamEmbed } from './createStreamEmbed';
export type { StreamEmbed, StreamEmbedOptions, StreamEventHandler } from './createStreamEmbed';
export { loadCounts } from './loadCounts';
export type { LoadCountsOptions } from './loadCounts';
export type { ParleyGlobal } from './parleyGlobal';
