export { createStreamEmbed } from './createStreamEmbed';
export type { StreamEmbed, StreamEmbedOptions, StreamEventHandler } from './createStreamEmbed';
export type { StoryParams, Theme } from '@parley/contract';
export { countText } from './countText';
export { fetchCommentCounts, loadCounts } from './loadCounts';
export type { LoadCountsOptions } from './loadCounts';
export type { ParleyGlobal } from './parleyGlobal';
