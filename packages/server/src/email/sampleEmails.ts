/**
 * Sample data for every email template (email/templates.ts): what `npm run emails:preview`
 * renders, and what the templates' tests fill them with.
 */
import type { EMAIL_TEMPLATES, EmailTemplateName } from './templates';

const SITE = 'https://comments.example.com';

export const SAMPLE_EMAILS: {
  [N in EmailTemplateName]: Parameters<(typeof EMAIL_TEMPLATES)[N]>[0];
} = {
  confirmEmail: { username: 'ann', link: `${SITE}/account/confirm-email#token=sample-token` },
  guestConfirmEmail: {
    name: 'Sam Smith',
    organization: 'Example News',
    link: `${SITE}/account/confirm-email#token=sample-token`,
  },
  signUpCode: {
    username: 'ann',
    taken: false,
    code: '482913',
    link: `${SITE}/embed/auth#sign-up=ann%40example.com&code=482913`,
  },
  alreadyRegistered: { username: 'ann', settingsUrl: `${SITE}/account/settings` },
  emailChanged: { username: 'ann', next: 'ann@new.example' },
  resetPassword: { username: 'ann', link: `${SITE}/account/reset-password#token=sample-token` },
  connectProvider: {
    username: 'ann',
    provider: 'GitHub',
    link: `${SITE}/auth/providers/link?key=sample-key`,
  },
  providerConnected: { username: 'ann', provider: 'GitHub' },
  download: { username: 'ann', link: `${SITE}/account/download#token=sample-token` },
  deletionRequested: {
    username: 'ann',
    deleteAt: new Date('2026-12-03T10:00:00.000Z'),
    settingsUrl: `${SITE}/account/settings`,
  },
  reply: {
    username: 'ann',
    replier: 'bob',
    story: 'The council votes on the new bridge',
    excerpt: 'I walked across the old one every day for twenty years & it was fine.',
    permalink: 'https://news.example/bridge?commentID=c-1',
    unsubscribe: `${SITE}/account/unsubscribe#token=sample-token`,
  },
  featured: {
    username: 'ann',
    story: 'The council votes on the new bridge',
    excerpt: 'The bridge has been closed twice this year.',
    permalink: 'https://news.example/bridge?commentID=c-2',
    unsubscribe: `${SITE}/account/unsubscribe#token=sample-token`,
  },
  moderationAlert: {
    username: 'mo',
    site: 'Daily News',
    queue: 'PENDING',
    author: 'ann',
    story: 'The council votes on the new bridge',
    excerpt: 'Buy cheap bridge tickets at my site!',
    moderate: `${SITE}/admin/moderate/pending?comment=c-3`,
    approve: `${SITE}/account/moderate#token=sample-approve`,
    reject: `${SITE}/account/moderate#token=sample-reject`,
    linkSeconds: 259_200,
    alerts: `${SITE}/admin/alerts`,
    unsubscribe: `${SITE}/account/unsubscribe#token=sample-token`,
  },
  moderationDigest: {
    username: 'mo',
    site: 'Daily News',
    period: 'hour',
    total: 2,
    items: [
      {
        queue: 'PENDING',
        author: 'ann',
        story: 'The council votes on the new bridge',
        excerpt: 'Buy cheap bridge tickets at my site!',
        moderate: `${SITE}/admin/moderate/pending?comment=c-3`,
        approve: `${SITE}/account/moderate#token=sample-approve-1`,
        reject: `${SITE}/account/moderate#token=sample-reject-1`,
      },
      {
        queue: 'REPORTED',
        author: 'bob',
        story: 'Rain all week',
        excerpt: 'Nobody asked you.',
        moderate: `${SITE}/admin/moderate/reported?comment=c-4`,
        approve: `${SITE}/account/moderate#token=sample-approve-2`,
        reject: `${SITE}/account/moderate#token=sample-reject-2`,
      },
    ],
    waiting: { pending: 5, reported: 1 },
    queues: `${SITE}/admin/moderate?site=site-1`,
    linkSeconds: 259_200,
    alerts: `${SITE}/admin/alerts`,
    unsubscribe: `${SITE}/account/unsubscribe#token=sample-token`,
  },
  moderationDecision: {
    username: 'ann',
    organization: 'Example News',
    decision: { kind: 'SUSPEND', until: '2026-12-03T18:00:00.000Z' },
    message: 'Please keep to the guidelines.\nThree of your comments this week insulted others.',
  },
  moderatorInvite: {
    admin: 'editor',
    username: 'ann',
    link: `${SITE}/account/accept-invite#token=sample-token`,
  },
  testEmail: { username: 'editor', organization: 'Example News' },
};
