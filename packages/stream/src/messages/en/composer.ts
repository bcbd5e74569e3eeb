import type { Message } from '../../i18n/createTranslator';

/** English: the composer area of the stream. */
export const messages = {
  'composer.label': 'Write a comment',
  'composer.replyLabel': 'Write a reply',
  'composer.toolbar': 'Formatting',
  'composer.bold': 'Bold',
  'composer.italic': 'Italic',
  'composer.quote': 'Quote',
  'composer.link': 'Link',
  'composer.code': 'Code',
  'composer.preview': 'Preview',
  'composer.image': 'Image',
  'composer.uploading': 'Uploading the image…',
  'composer.previewLoading': 'Loading the preview…',
  'composer.previewEmpty': 'Nothing to preview yet.',
  'composer.left': { one: '{count} character left', other: '{count} characters left' },
  'composer.over': { one: '{count} character too many', other: '{count} characters too many' },
  'composer.post': 'Post',
  'composer.queued': 'You are offline. Your comment is saved and will be posted when you are back.',
} satisfies Record<string, Message>;
