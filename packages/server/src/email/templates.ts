/**
 * Every email Parley sends, in one place: each template takes its data and answers a subject and
 * a body of blocks, which {@link renderEmail} writes twice — as plain text (always sent: some
 * readers show nothing else) and as HTML (escaped, one small inline-styled layout, no images or
 * remote content). Resolvers and jobs pick a template and fill it; no message text lives in them.
 * `npm run emails:preview` renders each with sample data into `test-output/emails/`.
 */
import {
  CONFIRM_EMAIL_TOKEN_TTL_SECONDS,
  DOWNLOAD_TOKEN_TTL_SECONDS,
  MODERATOR_INVITE_TOKEN_TTL_SECONDS,
  RESET_PASSWORD_TOKEN_TTL_SECONDS,
  SIGN_UP_CODE,
} from '../defaults';
import type { MailMessage } from './createMailer';
import { FLOW_SECONDS } from '../db/store/signInFlows';
import { escapeHtml } from '../markdown/renderComment';

/** One part of a body: a paragraph, a link (after some text), a code to type, a quotation. */
export type Block =
  string | { link: string; text?: string; label?: string } | { code: string } | { quote: string };

/** A template's output before rendering. */
export interface EmailContent {
  subject: string;
  body: Block[];
}

/** "3 days", "1 hour": how long a link works, for the message text. */
export function duration(seconds: number): string {
  if (seconds < 3600) return `${Math.round(seconds / 60)} minutes`;
  const hours = Math.round(seconds / 3600);
  if (hours < 48) return hours === 1 ? '1 hour' : `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}

const hello = (name: string) => `Hello ${name},`;

/** A decision on an account that a moderator explained in a message (userActions.ts). */
export type AccountDecision =
  | { kind: 'BAN' }
  | { kind: 'SUSPEND'; until: string }
  | { kind: 'PREMOD' }
  | { kind: 'UNPREMOD' }
  | { kind: 'ROLE'; role: string };

/** What a decision says, after the organization's name in the subject. */
function decisionText(decision: AccountDecision): string {
  switch (decision.kind) {
    case 'BAN':
      return 'your account is banned';
    case 'SUSPEND':
      return `your account is suspended until ${new Intl.DateTimeFormat('en-GB', {
        dateStyle: 'long',
        timeStyle: 'short',
        timeZone: 'UTC',
      }).format(new Date(decision.until))} UTC`;
    case 'PREMOD':
      return 'your comments will be reviewed before they appear';
    case 'UNPREMOD':
      return 'your comments appear without review again';
    case 'ROLE':
      return `your role is now ${decision.role.toLowerCase()}`;
  }
}

/** The footer of a notification the reader chose, with its one-click way out. */
const notificationFooter = (unsubscribe: string): Block => ({
  text: 'You get this because of your notification settings. Stop these emails: ',
  link: unsubscribe,
  label: 'unsubscribe',
});

/** The end of a moderation alert: where to choose them, and the way out of every notification. */
const alertsFooter = (d: { alerts: string; unsubscribe: string }): Block[] => [
  { text: 'Choose which sites alert you, and how often: ', link: d.alerts, label: 'your alerts' },
  notificationFooter(d.unsubscribe),
];

/** Every template, by name: what each email says. */
/** A comment in a moderator's alert or digest, with the links to it. */
interface AlertedComment {
  queue: 'PENDING' | 'REPORTED';
  author: string;
  story: string;
  excerpt: string;
  moderate: string;
  /** None for who signs in with a second factor (moderation/moderationAlerts.ts). */
  approve?: string | undefined;
  reject?: string | undefined;
}

export const EMAIL_TEMPLATES = {
  /** Asks the owner of a new address to confirm it. */
  confirmEmail: (d: { username: string; link: string }): EmailContent => ({
    subject: 'Confirm your email address',
    body: [
      hello(d.username),
      `please confirm that this is your email address by opening this link within ${duration(CONFIRM_EMAIL_TOKEN_TTL_SECONDS)}:`,
      { link: d.link, label: 'Confirm my email address' },
      'If you did not ask for this, you can ignore this message.',
    ],
  }),

  /**
   * To the address a guest gave: confirming it lets reply emails go there (and lets a member who
   * confirmed the same address claim the guest's comments). Says who gave it, so the owner of an
   * address someone else typed knows to ignore it.
   */
  guestConfirmEmail: (d: { name: string; organization: string; link: string }): EmailContent => ({
    subject: `${d.organization}: confirm your email for replies`,
    body: [
      'Hello,',
      `someone commented on ${d.organization} as a guest named "${d.name}" and gave this address for reply emails. If that was you, confirm it by opening this link within ${duration(CONFIRM_EMAIL_TOKEN_TTL_SECONDS)}:`,
      { link: d.link, label: 'Confirm my email address' },
      'If it was not you, ignore this message: no email about those comments is sent here, and nothing else changes.',
    ],
  }),

  /**
   * The code that finishes a sign-up (and, when taken, that the username must change); with a
   * free username, also a link that finishes it in one click (the sign-up window, still open in
   * the same browser, is then signed in).
   */
  signUpCode: (d: {
    username: string;
    taken: boolean;
    code: string;
    /** Null when the username is taken: the window must ask for another. */
    link: string | null;
  }): EmailContent => ({
    subject: 'Your code to finish signing up',
    body: [
      hello(d.username),
      `enter this code in the sign-up window within ${duration(SIGN_UP_CODE.ttlSeconds)} to create your account:`,
      { code: d.code },
      ...(d.taken
        ? [`The username "${d.username}" is taken: choose another there, next to the code.`]
        : [
            'Or open this link in the browser you are signing up in:',
            { link: d.link ?? '', label: 'Confirm my email and finish signing up' },
          ]),
      'If you did not sign up, you can ignore this message: no account is made.',
    ],
  }),

  /**
   * To an address that already has an account, when someone signs up with it: sign-up answers the
   * same whether or not an address has an account, so its owner hears of it here instead.
   */
  alreadyRegistered: (d: {
    username: string;
    /** Where to sign in or reset the password; null for an account of a site's SSO. */
    settingsUrl: string | null;
  }): EmailContent => ({
    subject: 'You already have an account',
    body: [
      hello(d.username),
      'someone, perhaps you, tried to sign up with this address. It already has an account, so nothing was created.',
      ...(d.settingsUrl === null
        ? ['Your account signs in through the site you comment on.']
        : [
            'Sign in with it, or if you forgot the password, choose a new one:',
            { link: d.settingsUrl, label: 'Sign in or reset the password' },
          ]),
      'If it was not you, you can ignore this message.',
    ],
  }),

  /** Tells the previous address that the account's email changed (a hijacked account shows here). */
  emailChanged: (d: { username: string; next: string }): EmailContent => ({
    subject: 'Your email address was changed',
    body: [
      hello(d.username),
      `the email address of your account was changed to ${d.next}.`,
      'If you did not do this, reset your password and contact the site’s team.',
    ],
  }),

  /** The password-reset link. */
  resetPassword: (d: { username: string; link: string }): EmailContent => ({
    subject: 'Reset your password',
    body: [
      hello(d.username),
      `open this link within ${duration(RESET_PASSWORD_TOKEN_TTL_SECONDS)} to choose a new password:`,
      { link: d.link, label: 'Choose a new password' },
      'If you did not ask for this, you can ignore this message: your password stays as it is.',
    ],
  }),

  /** Connects a sign-in provider to the account whose address it gave (providerSignIn.ts). */
  connectProvider: (d: { username: string; provider: string; link: string }): EmailContent => ({
    subject: `Connect ${d.provider} to your account`,
    body: [
      hello(d.username),
      `someone signed in with ${d.provider} using this address. Open this link within ${duration(FLOW_SECONDS.emailed)} to connect that ${d.provider} account to yours, so that it signs you in:`,
      { link: d.link, label: `Connect ${d.provider}` },
      'If it was not you, ignore this message: nothing is connected without this link.',
    ],
  }),

  /** Tells the account's address that a sign-in provider was connected to it. */
  providerConnected: (d: { username: string; provider: string }): EmailContent => ({
    subject: `${d.provider} was connected to your account`,
    body: [
      hello(d.username),
      `a ${d.provider} account was just connected to yours: it now signs you in.`,
      'If it was not you, disconnect it under Sign-in providers in your profile, and change your password.',
    ],
  }),

  /** The link to download one's comments. */
  download: (d: { username: string; link: string }): EmailContent => ({
    subject: 'Your comments are ready to download',
    body: [
      hello(d.username),
      `you can download everything you have written here from this link within ${duration(DOWNLOAD_TOKEN_TTL_SECONDS)}:`,
      { link: d.link, label: 'Download my comments' },
    ],
  }),

  /** Confirms a deletion request and says how to cancel it. */
  deletionRequested: (d: {
    username: string;
    deleteAt: Date;
    settingsUrl: string;
  }): EmailContent => ({
    subject: 'Your account will be deleted',
    body: [
      hello(d.username),
      `your account and your comments will be deleted on ${d.deleteAt.toUTCString()}.`,
      'Changed your mind? Sign in and choose “Cancel deletion” before then:',
      { link: d.settingsUrl, label: 'Cancel the deletion' },
    ],
  }),

  /** Someone replied to the reader's comment. */
  reply: (d: {
    username: string;
    replier: string;
    story: string;
    excerpt: string;
    permalink: string;
    unsubscribe: string;
  }): EmailContent => ({
    subject: `${d.replier} replied to your comment`,
    body: [
      hello(d.username),
      `${d.replier} replied to your comment on “${d.story}”:`,
      { quote: d.excerpt },
      { text: 'Read and answer: ', link: d.permalink, label: 'read and answer' },
      notificationFooter(d.unsubscribe),
    ],
  }),

  /** The moderators featured the reader's comment. */
  featured: (d: {
    username: string;
    story: string;
    excerpt: string;
    permalink: string;
    unsubscribe: string;
  }): EmailContent => ({
    subject: 'Your comment was featured',
    body: [
      hello(d.username),
      `the moderators featured your comment on “${d.story}”:`,
      { quote: d.excerpt },
      { text: 'See it: ', link: d.permalink, label: 'see it' },
      notificationFooter(d.unsubscribe),
    ],
  }),

  /** A comment entered a queue of a site the moderator is alerted about (EACH). */
  moderationAlert: (
    d: AlertedComment & {
      username: string;
      site: string;
      linkDays: string;
      alerts: string;
      unsubscribe: string;
    },
  ): EmailContent => ({
    subject:
      d.queue === 'PENDING'
        ? `Awaiting review on ${d.site}: a comment by ${d.author}`
        : `Reported on ${d.site}: a comment by ${d.author}`,
    body: [
      hello(d.username),
      d.queue === 'PENDING'
        ? `a comment by ${d.author} on “${d.story}” awaits review:`
        : `a comment by ${d.author} on “${d.story}” was reported:`,
      { quote: d.excerpt },
      { text: 'Open it in the console: ', link: d.moderate, label: 'moderate' },
      ...(d.approve && d.reject
        ? [
            {
              text: 'Or decide from here (you confirm on the page): ',
              link: d.approve,
              label: 'approve',
            },
            { text: 'or ', link: d.reject, label: 'reject' },
            `These two links work once, for ${d.linkDays}, and only while the comment waits.`,
          ]
        : []),
      ...alertsFooter(d),
    ],
  }),

  /** What entered a site's queues since the moderator's last digest (HOURLY, DAILY). */
  moderationDigest: (d: {
    username: string;
    site: string;
    period: string;
    total: number;
    items: AlertedComment[];
    waiting: { pending: number; reported: number };
    queues: string;
    linkDays: string;
    alerts: string;
    unsubscribe: string;
  }): EmailContent => ({
    subject: `${d.total} ${d.total === 1 ? 'comment' : 'comments'} to moderate on ${d.site}`,
    body: [
      hello(d.username),
      `in the last ${d.period}, ${d.total} ${d.total === 1 ? 'comment' : 'comments'} entered the queues of ${d.site}${d.total > d.items.length ? ` (the ${d.items.length} newest below)` : ''}. Waiting now: ${d.waiting.pending} pending, ${d.waiting.reported} reported.`,
      ...d.items.flatMap((item): Block[] => [
        `${item.queue === 'PENDING' ? 'Awaiting review' : 'Reported'}: ${item.author} on “${item.story}”`,
        { quote: item.excerpt },
        { text: 'Moderate: ', link: item.moderate, label: 'moderate' },
        ...(item.approve && item.reject
          ? [
              { text: 'Approve: ', link: item.approve, label: 'approve' },
              { text: 'Reject: ', link: item.reject, label: 'reject' },
            ]
          : []),
      ]),
      { text: 'All of them in the console: ', link: d.queues, label: 'open the queues' },
      ...(d.items.some((item) => item.approve)
        ? [`Approve and reject work once each, for ${d.linkDays}, after you confirm on the page.`]
        : []),
      ...alertsFooter(d),
    ],
  }),

  /** A moderation decision about the reader's account, in the moderator's own words. */
  moderationDecision: (d: {
    username: string;
    organization: string;
    /** What happened, said here: "your account is suspended until …". */
    decision: AccountDecision;
    message: string;
  }): EmailContent => ({
    subject: `${d.organization}: ${decisionText(d.decision)}`,
    body: [hello(d.username), d.message, `— the moderators of ${d.organization}`],
  }),

  /** An admin invites someone to moderate. */
  moderatorInvite: (d: { admin: string; username: string; link: string }): EmailContent => ({
    subject: 'You are invited to moderate',
    body: [
      'Hello,',
      `${d.admin} invited you to moderate as ${d.username}. To accept, open this link and choose a password (it becomes this account's password, and signs its other sessions out):`,
      { link: d.link, label: 'Accept the invitation' },
      `The link works for ${duration(MODERATOR_INVITE_TOKEN_TTL_SECONDS)}. If you did not expect this, ignore it: nothing changes until the link is opened.`,
    ],
  }),

  /** Configure › Email's test. */
  testEmail: (d: { username: string; organization: string }): EmailContent => ({
    subject: `${d.organization}: test email`,
    body: [hello(d.username), 'this is a test email from Parley. Delivery works.'],
  }),
} as const;

/** A template's name. */
export type EmailTemplateName = keyof typeof EMAIL_TEMPLATES;

/** Text with its line breaks kept (a moderator's message). */
const htmlText = (value: string) => escapeHtml(value).replaceAll('\n', '<br>');

function textOf(block: Block): string {
  if (typeof block === 'string') return block;
  if ('code' in block) return `    ${block.code}`;
  // Every line quoted: a line of the comment never passes for the email's own text.
  if ('quote' in block) return block.quote.replace(/^/gm, '> ');
  return `${block.text ?? ''}${block.link}`;
}

const LINK_STYLE = 'color:#1a56db';
const CODE_STYLE = 'font-size:24px;letter-spacing:4px;font-family:monospace';
const QUOTE_STYLE = 'margin:0 0 16px;padding:8px 12px;border-left:3px solid #ccc;color:#444';

function htmlOf(block: Block): string {
  if (typeof block === 'string') return `<p>${htmlText(block)}</p>`;
  if ('code' in block)
    return `<p style="${CODE_STYLE}"><strong>${escapeHtml(block.code)}</strong></p>`;
  if ('quote' in block)
    return `<blockquote style="${QUOTE_STYLE}">${htmlText(block.quote)}</blockquote>`;
  // Only web links: nothing a template is given becomes `javascript:` in a mail reader.
  const href = /^https?:\/\//i.test(block.link) ? block.link : '#';
  const anchor = `<a href="${escapeHtml(href)}" style="${LINK_STYLE}">${escapeHtml(block.label ?? block.link)}</a>`;
  if (block.text !== undefined) return `<p>${htmlText(block.text)}${anchor}</p>`;
  // A lone link is the message's action: its address is shown under it, to copy by hand.
  return `<p>${anchor}<br><small style="color:#666;word-break:break-all">${escapeHtml(block.link)}</small></p>`;
}

/** Writes `content` as the message to `to`: the text part and the HTML part. */
export function renderEmail(to: string, content: EmailContent): MailMessage {
  const text = `${content.body.map(textOf).join('\n\n')}\n`;
  const html =
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<title>${escapeHtml(content.subject)}</title></head>` +
    '<body style="margin:0;padding:0;background:#fff">' +
    '<div style="max-width:560px;margin:0 auto;padding:16px;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#222">' +
    content.body.map(htmlOf).join('') +
    '</div></body></html>';
  return { to, subject: content.subject, text, html };
}

/** Fills template `name` with `data` and renders it to `to`. */
export function email<N extends EmailTemplateName>(
  name: N,
  to: string,
  data: Parameters<(typeof EMAIL_TEMPLATES)[N]>[0],
): MailMessage {
  const template = EMAIL_TEMPLATES[name] as (d: typeof data) => EmailContent;
  return renderEmail(to, template(data));
}
