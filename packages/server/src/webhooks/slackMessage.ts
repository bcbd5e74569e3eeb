/**
 * The body of a SLACK-format endpoint: an incoming-webhook message (`{ "text": … }` in Slack's
 * mrkdwn), which Slack, Mattermost, Rocket.Chat and Discord's `/slack` endpoints all take. Built
 * from the same `data` as the signed JSON, so both formats say the same thing.
 */
import { HELD_COMMENT_STATUSES } from '../db/schema';
import type { CommentStatus } from '../db/schema';

/** Escapes what mrkdwn reads as markup (Slack's own rule: only these three). */
const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A link in mrkdwn. */
const link = (url: string, label: string) => `<${url}|${escape(label)}>`;

/** The start of a comment's text, quoted. */
function quote(text: string): string {
  const flat = text.trim();
  const excerpt = flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
  return excerpt
    .split('\n')
    .map((line) => `> ${escape(line)}`)
    .join('\n');
}

interface Person {
  username: string;
}
interface CommentData {
  comment: {
    id: string;
    url: string;
    status: CommentStatus;
    bodySource: string;
    author: Person | null;
  };
  story: { id: string; url: string; title: string };
  moderator?: Person | null;
  reason?: string | null;
  report?: { reason: string; details: string | null };
}

const REASONS: Record<string, string> = {
  SPAM: 'as spam',
  ABUSIVE: 'as abusive',
  OFF_TOPIC: 'as off topic',
  OTHER: '',
};

/** The message's text for `event` with its `data` (the JSON body's). */
export function slackText(event: string, data: unknown, publicUrl: string): string {
  const queue = (name: string, storyId: string) =>
    link(`${publicUrl}/admin/moderate/${name}?story=${encodeURIComponent(storyId)}`, 'Moderate');
  if (event.startsWith('comment.')) {
    const d = data as CommentData;
    const author = d.comment.author
      ? `*${escape(d.comment.author.username)}*`
      : 'a deleted account';
    const where = `on ${link(d.story.url, d.story.title || d.story.url)}`;
    const by = d.moderator ? `*${escape(d.moderator.username)}* ` : '';
    const body = `\n${quote(d.comment.bodySource)}`;
    switch (event) {
      case 'comment.created':
        return HELD_COMMENT_STATUSES.includes(d.comment.status)
          ? `New comment by ${author} awaiting review ${where}:${body}\n${queue('pending', d.story.id)}`
          : `New ${link(d.comment.url, 'comment')} by ${author} ${where}:${body}`;
      case 'comment.reported': {
        const details = d.report?.details ? `: “${escape(d.report.details)}”` : '';
        return `Comment by ${author} reported (${escape(d.report?.reason.toLowerCase() ?? 'other')}${details}) ${where}:${body}\n${queue('reported', d.story.id)}`;
      }
      case 'comment.approved':
        return `${by}approved a ${link(d.comment.url, 'comment')} by ${author} ${where}.`;
      case 'comment.rejected': {
        const reason = d.reason ? REASONS[d.reason] : '';
        return `${by}rejected a comment by ${author}${reason ? ` ${reason}` : ''} ${where}.`;
      }
      case 'comment.featured':
        return `${by}featured a ${link(d.comment.url, 'comment')} by ${author} ${where}:${body}`;
    }
  }
  if (event === 'user.banned' || event === 'user.suspended') {
    const d = data as { user: Person; moderator: Person | null; until?: string | null };
    const by = d.moderator ? `*${escape(d.moderator.username)}*` : 'Parley';
    const user = `*${escape(d.user.username)}*`;
    return event === 'user.banned'
      ? `${by} banned ${user}.`
      : `${by} suspended ${user} until ${d.until ? `<!date^${Math.floor(Date.parse(d.until) / 1000)}^{date_short_pretty} {time}|${d.until}>` : 'further notice'}.`;
  }
  if (event === 'story.created') {
    const d = data as { story: { url: string; title: string } };
    return `New story: ${link(d.story.url, d.story.title || d.story.url)}`;
  }
  return 'A test message from Parley: this channel is set to receive its events.';
}

/** The body of a SLACK-format delivery. */
export function slackBody(event: string, data: unknown, publicUrl: string): string {
  return JSON.stringify({ text: slackText(event, data, publicUrl) });
}
