import type { Message } from '../../i18n/createTranslator';

/** English: the stream's frame (states, tabs, live status). */
export const messages = {
  'stream.label': 'Comments',
  'stream.loading': 'Loading comments…',
  'stream.tabs': 'Comment sections',
  'stream.tab.comments': 'Comments',
  'stream.tab.featured': 'Featured',
  'stream.tab.profile': 'My profile',
  'stream.tab.configure': 'Configure',
  'stream.count': { one: '{count} comment', other: '{count} comments' },
  'stream.closed': 'Comments on this story are closed.',
  'stream.guidelines': 'Community guidelines',
  'stream.empty': 'No comments yet. Start the conversation!',
  'stream.noStory': 'This story could not be found.',
  'stream.notPermitted':
    'This page ({origin}) is not a permitted origin of any site on this Parley server. Site owner: add it to the site’s permitted origins in the console (Configure → Sites).',
  'stream.notInstalled':
    'Parley is not set up yet. Site owner: open the console’s install wizard at {url}.',
  'stream.loadFailed': 'The comments could not be loaded.',
  'stream.retry': 'Try again',
  'stream.live.reconnecting': 'Live updates paused, reconnecting…',
  'stream.live.offline': 'You are offline. Your comments will be sent when you are back.',
} satisfies Record<string, Message>;
