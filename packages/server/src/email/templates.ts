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
import { createTranslator, directionOf, toLocale } from '@parley/contract';
import type { Translate } from '@parley/contract';
import type { MailMessage } from './createMailer';
import { SERVER_CATALOGS, SERVER_ENGLISH } from '../i18n/catalogs.generated';
import type { ServerMessageKey } from '../i18n/catalogs.generated';
import type { Organization } from '../db/store/organization';
import type { UserRole } from '../db/schema';
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

/** Formats for one email's language: its translator, durations and dates. */
export interface EmailWriter {
  locale: string;
  t: Translate<ServerMessageKey>;
  /** "3 days", "1 hour": how long a link works. */
  duration(seconds: number): string;
  /** A moment with its date and time, in UTC (the server does not know the reader's zone). */
  date(at: Date | string): string;
}

/** One writer per locale: its translator and Intl formats are made once, not per email. */
const writers = new Map<string, EmailWriter>();

/** The writer of emails in `locale` (one of {@link EMAIL_LOCALES}). */
export function emailWriter(locale: string): EmailWriter {
  let writer = writers.get(locale);
  if (!writer) writers.set(locale, (writer = makeWriter(locale)));
  return writer;
}

function makeWriter(locale: string): EmailWriter {
  const translate = createTranslator(locale, SERVER_CATALOGS[locale] ?? SERVER_ENGLISH);
  // Right to left, each value set apart (Unicode's first-strong isolates): a Latin name or title
  // keeps its own direction, and the punctuation around it stays where the sentence puts it.
  const t: Translate<ServerMessageKey> =
    directionOf(locale) === 'rtl'
      ? (key, vars = {}) =>
          translate(
            key,
            Object.fromEntries(
              Object.entries(vars).map(([name, value]) => [
                name,
                typeof value === 'string' ? `\u2068${value}\u2069` : value,
              ]),
            ),
          )
      : translate;
  // English dates as they always were: "3 December 2026 at 18:00" (en-GB, day before month).
  const dates = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return {
    locale,
    t,
    duration(seconds) {
      if (seconds < 3600) return t('email.duration.minutes', { count: Math.round(seconds / 60) });
      const hours = Math.round(seconds / 3600);
      if (hours < 48) return t('email.duration.hours', { count: hours });
      return t('email.duration.days', { count: Math.round(hours / 24) });
    },
    date: (at) => t('email.dateUtc', { date: dates.format(new Date(at)) }),
  };
}

/** "3 days", "1 hour" in English (the command line's text). */
export function duration(seconds: number): string {
  return emailWriter('en').duration(seconds);
}

/** The locales emails are written in, English first. */
export const EMAIL_LOCALES = Object.keys(SERVER_CATALOGS);

/**
 * The language of an email: the first of `choices` (the recipient's own, then the site's, then
 * the organization's) that has a catalog, a tag matched by its language (`pt-PT` → `pt-BR`);
 * English when none has.
 */
export function emailLocale(...choices: (string | null | undefined)[]): string {
  for (const choice of choices) {
    const locale = toLocale(choice, EMAIL_LOCALES);
    if (locale) return locale;
  }
  return 'en';
}

/**
 * Whom an email goes to, and in which language: the recipient's own ({@link User}'s `locale`,
 * their popup's or console's at their last sign-in), else the comments' language the site set,
 * else the organization's.
 */
export function recipient(
  to: string,
  user: { locale: string | null } | null,
  organization: Pick<Organization, 'locale' | 'settings'> | undefined,
): Recipient {
  return {
    to,
    locale: emailLocale(user?.locale, organization?.settings.locale, organization?.locale),
  };
}

/** An email's address and language. */
export interface Recipient {
  to: string;
  locale: string;
}

/** A decision on an account that a moderator explained in a message (userActions.ts). */
export type AccountDecision =
  | { kind: 'BAN' }
  | { kind: 'SUSPEND'; until: string }
  | { kind: 'PREMOD' }
  | { kind: 'UNPREMOD' }
  | { kind: 'ROLE'; role: UserRole };

/** What a decision says, after the organization's name in the subject. */
function decisionText(decision: AccountDecision, w: EmailWriter): string {
  switch (decision.kind) {
    case 'BAN':
      return w.t('email.moderationDecision.ban');
    case 'SUSPEND':
      return w.t('email.moderationDecision.suspend', { until: w.date(decision.until) });
    case 'PREMOD':
      return w.t('email.moderationDecision.premod');
    case 'UNPREMOD':
      return w.t('email.moderationDecision.unpremod');
    case 'ROLE':
      return w.t('email.moderationDecision.role', { role: w.t(`email.role.${decision.role}`) });
  }
}

/** The footer of a notification the reader chose, with its one-click way out. */
const notificationFooter = (unsubscribe: string, { t }: EmailWriter): Block => ({
  text: t('email.notificationFooter'),
  link: unsubscribe,
  label: t('email.notificationFooter.link'),
});

/** The end of a moderation alert: where to choose them, and the way out of every notification. */
const alertsFooter = (d: { alerts: string; unsubscribe: string }, w: EmailWriter): Block[] => [
  { text: w.t('email.alertsFooter'), link: d.alerts, label: w.t('email.alertsFooter.link') },
  notificationFooter(d.unsubscribe, w),
];

/** A comment in a moderator's alert or digest, with the links to it. */
interface AlertedComment {
  queue: 'PENDING' | 'REPORTED';
  /** Null for an account deleted since ("Deleted user", as the thread says it). */
  author: string | null;
  story: string;
  excerpt: string;
  moderate: string;
  /** None for who signs in with a second factor (moderation/moderationAlerts.ts). */
  approve?: string | undefined;
  reject?: string | undefined;
}

/** Every template, by name: what each email says, in the words of the writer's language. */
export const EMAIL_TEMPLATES = {
  /** Asks the owner of a new address to confirm it. */
  confirmEmail: (
    d: { username: string; link: string },
    { t, duration }: EmailWriter,
  ): EmailContent => ({
    subject: t('email.confirmEmail.subject'),
    body: [
      t('email.hello', { name: d.username }),
      t('email.confirmEmail.body', { duration: duration(CONFIRM_EMAIL_TOKEN_TTL_SECONDS) }),
      { link: d.link, label: t('email.confirmEmail.action') },
      t('email.confirmEmail.ignore'),
    ],
  }),

  /**
   * To the address a guest gave: confirming it lets reply emails go there (and lets a member who
   * confirmed the same address claim the guest's comments). Says who gave it, so the owner of an
   * address someone else typed knows to ignore it.
   */
  guestConfirmEmail: (
    d: { name: string; organization: string; link: string },
    { t, duration }: EmailWriter,
  ): EmailContent => ({
    subject: t('email.guestConfirmEmail.subject', { organization: d.organization }),
    body: [
      t('email.helloAnyone'),
      t('email.guestConfirmEmail.body', {
        organization: d.organization,
        name: d.name,
        duration: duration(CONFIRM_EMAIL_TOKEN_TTL_SECONDS),
      }),
      { link: d.link, label: t('email.guestConfirmEmail.action') },
      t('email.guestConfirmEmail.ignore'),
    ],
  }),

  /**
   * The code that finishes a sign-up (and, when taken, that the username must change); with a
   * free username, also a link that finishes it in one click (the sign-up window, still open in
   * the same browser, is then signed in).
   */
  signUpCode: (
    d: {
      username: string;
      taken: boolean;
      code: string;
      /** Null when the username is taken: the window must ask for another. */
      link: string | null;
    },
    { t, duration }: EmailWriter,
  ): EmailContent => ({
    subject: t('email.signUpCode.subject'),
    body: [
      t('email.hello', { name: d.username }),
      t('email.signUpCode.body', { duration: duration(SIGN_UP_CODE.ttlSeconds) }),
      { code: d.code },
      ...(d.taken
        ? [t('email.signUpCode.taken', { username: d.username })]
        : [
            t('email.signUpCode.orLink'),
            { link: d.link ?? '', label: t('email.signUpCode.action') },
          ]),
      t('email.signUpCode.ignore'),
    ],
  }),

  /**
   * To an address that already has an account, when someone signs up with it: sign-up answers the
   * same whether or not an address has an account, so its owner hears of it here instead.
   */
  alreadyRegistered: (
    d: {
      username: string;
      /** Where to sign in or reset the password; null for an account of a site's SSO. */
      settingsUrl: string | null;
    },
    { t }: EmailWriter,
  ): EmailContent => ({
    subject: t('email.alreadyRegistered.subject'),
    body: [
      t('email.hello', { name: d.username }),
      t('email.alreadyRegistered.body'),
      ...(d.settingsUrl === null
        ? [t('email.alreadyRegistered.sso')]
        : [
            t('email.alreadyRegistered.signIn'),
            { link: d.settingsUrl, label: t('email.alreadyRegistered.action') },
          ]),
      t('email.alreadyRegistered.ignore'),
    ],
  }),

  /** Tells the previous address that the account's email changed (a hijacked account shows here). */
  emailChanged: (d: { username: string; next: string }, { t }: EmailWriter): EmailContent => ({
    subject: t('email.emailChanged.subject'),
    body: [
      t('email.hello', { name: d.username }),
      t('email.emailChanged.body', { address: d.next }),
      t('email.emailChanged.notYou'),
    ],
  }),

  /** The password-reset link. */
  resetPassword: (
    d: { username: string; link: string },
    { t, duration }: EmailWriter,
  ): EmailContent => ({
    subject: t('email.resetPassword.subject'),
    body: [
      t('email.hello', { name: d.username }),
      t('email.resetPassword.body', { duration: duration(RESET_PASSWORD_TOKEN_TTL_SECONDS) }),
      { link: d.link, label: t('email.resetPassword.action') },
      t('email.resetPassword.ignore'),
    ],
  }),

  /** Connects a sign-in provider to the account whose address it gave (providerSignIn.ts). */
  connectProvider: (
    d: { username: string; provider: string; link: string },
    { t, duration }: EmailWriter,
  ): EmailContent => ({
    subject: t('email.connectProvider.subject', { provider: d.provider }),
    body: [
      t('email.hello', { name: d.username }),
      t('email.connectProvider.body', {
        provider: d.provider,
        duration: duration(FLOW_SECONDS.emailed),
      }),
      { link: d.link, label: t('email.connectProvider.action', { provider: d.provider }) },
      t('email.connectProvider.ignore'),
    ],
  }),

  /** Tells the account's address that a sign-in provider was connected to it. */
  providerConnected: (
    d: { username: string; provider: string },
    { t }: EmailWriter,
  ): EmailContent => ({
    subject: t('email.providerConnected.subject', { provider: d.provider }),
    body: [
      t('email.hello', { name: d.username }),
      t('email.providerConnected.body', { provider: d.provider }),
      t('email.providerConnected.notYou'),
    ],
  }),

  /** The link to download one's comments. */
  download: (
    d: { username: string; link: string },
    { t, duration }: EmailWriter,
  ): EmailContent => ({
    subject: t('email.download.subject'),
    body: [
      t('email.hello', { name: d.username }),
      t('email.download.body', { duration: duration(DOWNLOAD_TOKEN_TTL_SECONDS) }),
      { link: d.link, label: t('email.download.action') },
    ],
  }),

  /** Confirms a deletion request and says how to cancel it. */
  deletionRequested: (
    d: { username: string; deleteAt: Date; settingsUrl: string },
    { t, date }: EmailWriter,
  ): EmailContent => ({
    subject: t('email.deletionRequested.subject'),
    body: [
      t('email.hello', { name: d.username }),
      t('email.deletionRequested.body', { date: date(d.deleteAt) }),
      t('email.deletionRequested.cancel'),
      { link: d.settingsUrl, label: t('email.deletionRequested.action') },
    ],
  }),

  /** Someone replied to the reader's comment. */
  reply: (
    d: {
      username: string;
      replier: string;
      story: string;
      excerpt: string;
      permalink: string;
      unsubscribe: string;
    },
    w: EmailWriter,
  ): EmailContent => ({
    subject: w.t('email.reply.subject', { replier: d.replier }),
    body: [
      w.t('email.hello', { name: d.username }),
      w.t('email.reply.body', { replier: d.replier, story: d.story }),
      { quote: d.excerpt },
      { text: w.t('email.reply.read'), link: d.permalink, label: w.t('email.reply.read.link') },
      notificationFooter(d.unsubscribe, w),
    ],
  }),

  /** The moderators featured the reader's comment. */
  featured: (
    d: { username: string; story: string; excerpt: string; permalink: string; unsubscribe: string },
    w: EmailWriter,
  ): EmailContent => ({
    subject: w.t('email.featured.subject'),
    body: [
      w.t('email.hello', { name: d.username }),
      w.t('email.featured.body', { story: d.story }),
      { quote: d.excerpt },
      { text: w.t('email.featured.see'), link: d.permalink, label: w.t('email.featured.see.link') },
      notificationFooter(d.unsubscribe, w),
    ],
  }),

  /** A comment entered a queue of a site the moderator is alerted about (EACH). */
  moderationAlert: (
    d: AlertedComment & {
      username: string;
      /** The site's name; null for a site that is gone. */
      site: string | null;
      /** How long Approve and Reject work. */
      linkSeconds: number;
      alerts: string;
      unsubscribe: string;
    },
    w: EmailWriter,
  ): EmailContent => {
    const { t } = w;
    const site = d.site ?? t('email.yourSite');
    const pending = d.queue === 'PENDING';
    return {
      subject: t(
        pending
          ? 'email.moderationAlert.subject.pending'
          : 'email.moderationAlert.subject.reported',
        { site, author: d.author ?? t('thread.deletedUser') },
      ),
      body: [
        t('email.hello', { name: d.username }),
        t(pending ? 'email.moderationAlert.body.pending' : 'email.moderationAlert.body.reported', {
          author: d.author ?? t('thread.deletedUser'),
          story: d.story,
        }),
        { quote: d.excerpt },
        {
          text: t('email.moderationAlert.open'),
          link: d.moderate,
          label: t('email.moderationAlert.open.link'),
        },
        ...(d.approve && d.reject
          ? [
              {
                text: t('email.moderationAlert.decide'),
                link: d.approve,
                label: t('email.moderationAlert.approve.link'),
              },
              {
                text: t('email.moderationAlert.or'),
                link: d.reject,
                label: t('email.moderationAlert.reject.link'),
              },
              t('email.moderationAlert.linksWork', { duration: w.duration(d.linkSeconds) }),
            ]
          : []),
        ...alertsFooter(d, w),
      ],
    };
  },

  /** What entered a site's queues since the moderator's last digest (HOURLY, DAILY). */
  moderationDigest: (
    d: {
      username: string;
      /** The site's name; null for a site that is gone. */
      site: string | null;
      period: 'hour' | 'day';
      total: number;
      items: AlertedComment[];
      waiting: { pending: number; reported: number };
      queues: string;
      /** How long Approve and Reject work. */
      linkSeconds: number;
      alerts: string;
      unsubscribe: string;
    },
    w: EmailWriter,
  ): EmailContent => {
    const { t } = w;
    const site = d.site ?? t('email.yourSite');
    const summary = [
      t(`email.moderationDigest.intro.${d.period}`, { count: d.total, site }),
      ...(d.total > d.items.length
        ? [t('email.moderationDigest.newest', { count: d.items.length })]
        : []),
      t('email.moderationDigest.waiting', d.waiting),
    ];
    return {
      subject: t('email.moderationDigest.subject', { count: d.total, site }),
      body: [
        t('email.hello', { name: d.username }),
        // Sentences run on with a space, but not in Chinese and Japanese (their full stop has one).
        summary.join(/^(ja|zh)\b/.test(w.locale) ? '' : ' '),
        ...d.items.flatMap((item): Block[] => [
          t(
            item.queue === 'PENDING'
              ? 'email.moderationDigest.item.pending'
              : 'email.moderationDigest.item.reported',
            { author: item.author ?? t('thread.deletedUser'), story: item.story },
          ),
          { quote: item.excerpt },
          {
            text: t('email.moderationDigest.moderate'),
            link: item.moderate,
            label: t('email.moderationDigest.moderate.link'),
          },
          ...(item.approve && item.reject
            ? [
                {
                  text: t('email.moderationDigest.approve'),
                  link: item.approve,
                  label: t('email.moderationDigest.approve.link'),
                },
                {
                  text: t('email.moderationDigest.reject'),
                  link: item.reject,
                  label: t('email.moderationDigest.reject.link'),
                },
              ]
            : []),
        ]),
        {
          text: t('email.moderationDigest.all'),
          link: d.queues,
          label: t('email.moderationDigest.all.link'),
        },
        ...(d.items.some((item) => item.approve)
          ? [t('email.moderationDigest.linksWork', { duration: w.duration(d.linkSeconds) })]
          : []),
        ...alertsFooter(d, w),
      ],
    };
  },

  /** A moderation decision about the reader's account, in the moderator's own words. */
  moderationDecision: (
    d: {
      username: string;
      organization: string;
      /** What happened, said here: "your account is suspended until …". */
      decision: AccountDecision;
      message: string;
    },
    w: EmailWriter,
  ): EmailContent => ({
    subject: w.t('email.moderationDecision.subject', {
      organization: d.organization,
      decision: decisionText(d.decision, w),
    }),
    body: [
      w.t('email.hello', { name: d.username }),
      d.message,
      w.t('email.moderationDecision.signature', { organization: d.organization }),
    ],
  }),

  /** An admin invites someone to moderate. */
  moderatorInvite: (
    d: { admin: string; username: string; link: string },
    { t, duration }: EmailWriter,
  ): EmailContent => ({
    subject: t('email.moderatorInvite.subject'),
    body: [
      t('email.helloAnyone'),
      t('email.moderatorInvite.body', { admin: d.admin, username: d.username }),
      { link: d.link, label: t('email.moderatorInvite.action') },
      t('email.moderatorInvite.expires', {
        duration: duration(MODERATOR_INVITE_TOKEN_TTL_SECONDS),
      }),
    ],
  }),

  /** Configure › Email's test. */
  testEmail: (d: { username: string; organization: string }, { t }: EmailWriter): EmailContent => ({
    subject: t('email.testEmail.subject', { organization: d.organization }),
    body: [t('email.hello', { name: d.username }), t('email.testEmail.body')],
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
/** A quotation's bar on the side lines start from (mail readers know few logical properties). */
const quoteStyle = (side: 'left' | 'right') =>
  `margin:0 0 16px;padding:8px 12px;border-${side}:3px solid #ccc;color:#444`;

function htmlOf(block: Block, dir: 'ltr' | 'rtl'): string {
  if (typeof block === 'string') return `<p>${htmlText(block)}</p>`;
  if ('code' in block)
    return `<p style="${CODE_STYLE}"><strong>${escapeHtml(block.code)}</strong></p>`;
  if ('quote' in block)
    // The reader's text, in its own direction: an English comment in an Arabic email stays LTR.
    return `<blockquote dir="auto" style="${quoteStyle(dir === 'rtl' ? 'right' : 'left')}">${htmlText(block.quote)}</blockquote>`;
  // Only web links: nothing a template is given becomes `javascript:` in a mail reader.
  const href = /^https?:\/\//i.test(block.link) ? block.link : '#';
  const anchor = `<a href="${escapeHtml(href)}" style="${LINK_STYLE}">${escapeHtml(block.label ?? block.link)}</a>`;
  if (block.text !== undefined) return `<p>${htmlText(block.text)}${anchor}</p>`;
  // A lone link is the message's action: its address is shown under it, to copy by hand.
  return `<p>${anchor}<br><small style="color:#666;word-break:break-all">${escapeHtml(block.link)}</small></p>`;
}

/**
 * Writes `content` as the message to `to`, in `locale`: the text part and the HTML part, whose
 * `lang` and `dir` are the language's (Arabic and Hebrew read right to left).
 */
export function renderEmail(to: string, content: EmailContent, locale = 'en'): MailMessage {
  const dir = directionOf(locale);
  const text = `${content.body.map(textOf).join('\n\n')}\n`;
  const html =
    `<!doctype html><html lang="${escapeHtml(locale)}" dir="${dir}"><head><meta charset="utf-8">` +
    `<title>${escapeHtml(content.subject)}</title></head>` +
    '<body style="margin:0;padding:0;background:#fff">' +
    `<div dir="${dir}" style="max-width:560px;margin:0 auto;padding:16px;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#222">` +
    content.body.map((block) => htmlOf(block, dir)).join('') +
    '</div></body></html>';
  return { to, subject: content.subject, text, html };
}

/** Fills template `name` with `data` in the recipient's language and renders it to them. */
export function email<N extends EmailTemplateName>(
  name: N,
  to: Recipient,
  data: Parameters<(typeof EMAIL_TEMPLATES)[N]>[0],
): MailMessage {
  const template = EMAIL_TEMPLATES[name] as (d: typeof data, w: EmailWriter) => EmailContent;
  return renderEmail(to.to, template(data, emailWriter(to.locale)), to.locale);
}
