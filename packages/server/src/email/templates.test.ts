import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { directionOf, SUPPORTED_LOCALES } from '@parley/contract';
import {
  EMAIL_LOCALES,
  EMAIL_TEMPLATES,
  email,
  emailLocale,
  emailWriter,
  recipient,
  renderEmail,
} from './templates';
import type { AccountDecision, EmailTemplateName } from './templates';
import { SAMPLE_EMAILS } from './sampleEmails';
import { DEFAULT_SETTINGS } from '../defaults';

const HOSTILE = '<img src=x onerror="alert(1)"> & “quotes”';
const EN = { to: 'a@example.com', locale: 'en' };

describe('email templates', () => {
  it('have a sample each (the preview renders every one)', () => {
    expect(Object.keys(SAMPLE_EMAILS).sort()).toEqual(Object.keys(EMAIL_TEMPLATES).sort());
  });

  const everyOne = EMAIL_LOCALES.flatMap((locale) =>
    (Object.keys(EMAIL_TEMPLATES) as EmailTemplateName[]).map((name) => [name, locale] as const),
  );

  it.each(everyOne)(
    '%s in %s renders a text part and an HTML part saying the same, every placeholder filled',
    (name, locale) => {
      const message = email(
        name,
        { to: 'reader@example.com', locale },
        SAMPLE_EMAILS[name] as never,
      );
      // Filled: no `{name}` left, no message key shown for a missing text.
      expect(`${message.subject}\n${message.text}`).not.toMatch(/\{\w+\}|email\.\w/);
      expect(message.html).toContain(`<html lang="${locale}" dir="${directionOf(locale)}">`);
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
      email('signUpCode', EN, {
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
    const reply = email('reply', EN, SAMPLE_EMAILS.reply);
    expect(reply.text).toContain(`\n\n> ${SAMPLE_EMAILS.reply.excerpt}\n\n`);
    expect(reply.text).toContain(`Read and answer: ${SAMPLE_EMAILS.reply.permalink}\n\n`);
  });

  it('escapes what people wrote, keeps their line breaks, and links only to the web', () => {
    const message = email('moderationDecision', EN, {
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
      email('moderationDecision', EN, {
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

  it('are written in each of the 15 languages, Arabic and Hebrew right to left', () => {
    expect(EMAIL_LOCALES).toEqual(SUPPORTED_LOCALES);
    const reply = (locale: string) =>
      email('reply', { to: 'a@example.com', locale }, SAMPLE_EMAILS.reply);
    expect(reply('es').subject).toBe('bob ha respondido a tu comentario');
    expect(reply('es').text).toContain('Hola, ann:');
    const arabic = reply('ar');
    expect(arabic.html).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.html).toContain('<div dir="rtl"');
    // The reader's own words keep their direction; the quotation's bar is on the right.
    expect(arabic.html).toMatch(/<blockquote dir="auto" style="[^"]*border-right:3px/);
    expect(reply('he').html).toContain('dir="rtl"');
    // Values set apart from the right-to-left text around them: a Latin name keeps its order.
    expect(arabic.subject).toContain('\u2068bob\u2069');
    expect(reply('es').subject).not.toContain('\u2068');
    expect(reply('en').html).toMatch(/<blockquote dir="auto" style="[^"]*border-left:3px/);
  });

  it('say durations and dates in the language: its plurals, its calendar words', () => {
    expect(emailWriter('ru').duration(5 * 86_400)).toBe('5 дней');
    expect(emailWriter('ru').duration(2 * 86_400)).toBe('2 дней');
    expect(emailWriter('en').duration(3600)).toBe('1 hour');
    expect(emailWriter('en').duration(1800)).toBe('30 minutes');
    expect(emailWriter('pl').duration(3 * 86_400)).toBe('3 dni');
    expect(
      email(
        'deletionRequested',
        { to: 'a@example.com', locale: 'de' },
        SAMPLE_EMAILS.deletionRequested,
      ).text,
    ).toContain('3. Dezember 2026');
    expect(
      email(
        'moderationDecision',
        { to: 'a@example.com', locale: 'fr' },
        {
          username: 'ann',
          organization: 'News',
          decision: { kind: 'SUSPEND', until: '2026-12-03T18:00:00.000Z' },
          message: 'Pourquoi.',
        },
      ).subject,
    ).toContain('3 décembre 2026');
  });

  it('go in the recipient’s language, else the site’s, else the organization’s, else English', () => {
    const org = (comments: string, organization: string) => ({
      locale: organization,
      settings: { ...DEFAULT_SETTINGS, locale: comments },
    });
    expect(recipient('a@x.example', { locale: 'ja' }, org('fr', 'de'))).toEqual({
      to: 'a@x.example',
      locale: 'ja',
    });
    expect(recipient('a@x.example', { locale: null }, org('fr', 'de')).locale).toBe('fr');
    expect(recipient('a@x.example', { locale: null }, org('', 'de')).locale).toBe('de');
    expect(recipient('a@x.example', null, undefined).locale).toBe('en');
    // Matched by language; a language without text passes to the next choice.
    expect(emailLocale('pt-PT')).toBe('pt-BR');
    expect(emailLocale('sv', 'zh-TW')).toBe('zh-CN');
    expect(emailLocale('sv')).toBe('en');
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
