import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMAIL_TEMPLATES, email, renderEmail } from './templates';
import type { AccountDecision, EmailTemplateName } from './templates';
import { SAMPLE_EMAILS } from './sampleEmails';

const HOSTILE = '<img src=x onerror="alert(1)"> & “quotes”';

describe('email templates', () => {
  it('have a sample each (the preview renders every one)', () => {
    expect(Object.keys(SAMPLE_EMAILS).sort()).toEqual(Object.keys(EMAIL_TEMPLATES).sort());
  });

  it.each(Object.keys(EMAIL_TEMPLATES) as EmailTemplateName[])(
    '%s renders a text part and an HTML part saying the same',
    (name) => {
      const message = email(name, 'reader@example.com', SAMPLE_EMAILS[name] as never);
      expect(message.to).toBe('reader@example.com');
      expect(message.subject.length).toBeGreaterThan(0);
      expect(message.text).toMatch(/\n$/);
      expect(message.html).toMatch(/^<!doctype html>/);
      // Every web address of the text is a link of the HTML.
      for (const url of message.text.match(/https?:\/\/\S+/g) ?? []) {
        expect(message.html).toContain(`href="${url.replaceAll('&', '&amp;')}"`);
      }
      // Every paragraph of the text is in the HTML, in order.
      let from = 0;
      for (const paragraph of message.text.trim().split('\n\n')) {
        const words = paragraph
          .replace(/^> |^ {4}/, '')
          .split(/https?:\/\/\S+/)[0]!
          .trim();
        if (words === '') continue;
        const escaped = words
          .replaceAll('&', '&amp;')
          .replaceAll('"', '&quot;')
          .replaceAll('\n', '<br>');
        const at = message.html!.indexOf(escaped, from);
        expect({ paragraph, found: at >= 0 }).toEqual({ paragraph, found: true });
        from = at;
      }
    },
  );

  it('keeps the text readers had: the code indented, the reply quoted, the links bare', () => {
    expect(
      email('signUpCode', 'a@example.com', {
        username: 'ann',
        taken: false,
        code: '123456',
        link: 'https://p.example/embed/auth#sign-up=a%40example.com&code=123456',
      }).text,
    ).toBe(
      'Hello ann,\n\nenter this code in the sign-up window within 30 minutes to create your ' +
        'account:\n\n    123456\n\nOr open this link in the browser you are signing up in:\n\n' +
        'https://p.example/embed/auth#sign-up=a%40example.com&code=123456\n\nIf you did not ' +
        'sign up, you can ignore this message: no account is made.\n',
    );
    const reply = email('reply', 'a@example.com', SAMPLE_EMAILS.reply);
    expect(reply.text).toContain(`\n\n> ${SAMPLE_EMAILS.reply.excerpt}\n\n`);
    expect(reply.text).toContain(`Read and answer: ${SAMPLE_EMAILS.reply.permalink}\n\n`);
  });

  it('escapes what people wrote, keeps their line breaks, and links only to the web', () => {
    const message = email('moderationDecision', 'a@example.com', {
      username: HOSTILE,
      organization: 'News',
      decision: { kind: 'BAN' },
      message: `First line\nsecond ${HOSTILE}`,
    });
    expect(message.html).not.toContain('<img');
    expect(message.html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp;');
    expect(message.html).toContain('First line<br>second');
    const sneaky = renderEmail('a@example.com', {
      subject: 'x',
      body: [{ link: 'javascript:alert(1)' }],
    });
    expect(sneaky.html).toContain('href="#"');
    expect(sneaky.html).not.toContain('href="javascript:');
  });

  it('say each decision on an account in the subject, from what was decided', () => {
    const subject = (decision: AccountDecision) =>
      email('moderationDecision', 'a@example.com', {
        username: 'ann',
        organization: 'News',
        decision,
        message: 'Why.',
      }).subject;
    expect([
      subject({ kind: 'BAN' }),
      subject({ kind: 'SUSPEND', until: '2026-12-03T18:00:00.000Z' }),
      subject({ kind: 'PREMOD' }),
      subject({ kind: 'UNPREMOD' }),
      subject({ kind: 'ROLE', role: 'MODERATOR' }),
    ]).toEqual([
      'News: your account is banned',
      'News: your account is suspended until 3 December 2026 at 18:00 UTC',
      'News: your comments will be reviewed before they appear',
      'News: your comments appear without review again',
      'News: your role is now moderator',
    ]);
  });

  it('are the only place message text is written: no resolver, job or command sets a subject', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
          if (/\bsubject:\s*[`'"]/.test(readFileSync(path, 'utf8'))) offenders.push(path);
        }
      }
    };
    for (const dir of ['graphql', 'jobs', 'cli']) walk(join(__dirname, '..', dir));
    expect(offenders).toEqual([]);
  });
});
