// Renders every email template (packages/server/src/email/templates.ts) with its sample data
// (sampleEmails.ts), in every language emails are written in, into `test-output/emails/` (or the
// folder given): `<locale>/<name>.html` and `<locale>/<name>.txt` each, and an `index.html`
// linking them — to look at in a browser and a mail client before a change to any email or
// catalog (locales/*/emails.json) lands. `npm run emails:preview [folder] [locale…]`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EMAIL_LOCALES, EMAIL_TEMPLATES, email } from '../packages/server/src/email/templates';
import type { EmailTemplateName } from '../packages/server/src/email/templates';
import { SAMPLE_EMAILS } from '../packages/server/src/email/sampleEmails';

const out = resolve(process.argv[2] ?? 'test-output/emails');
const asked = process.argv.slice(3);
const locales = asked.length
  ? EMAIL_LOCALES.filter((locale) => asked.includes(locale))
  : EMAIL_LOCALES;
const names = Object.keys(EMAIL_TEMPLATES) as EmailTemplateName[];
const sections: string[] = [];
for (const locale of locales) {
  mkdirSync(join(out, locale), { recursive: true });
  const rows: string[] = [];
  for (const name of names) {
    const message = email(name, { to: 'reader@example.com', locale }, SAMPLE_EMAILS[name] as never);
    writeFileSync(join(out, locale, `${name}.html`), message.html ?? '');
    writeFileSync(
      join(out, locale, `${name}.txt`),
      `Subject: ${message.subject}\n\n${message.text}`,
    );
    rows.push(
      `<li><a href="${locale}/${name}.html">${name}</a> (<a href="${locale}/${name}.txt">text</a>): <span lang="${locale}">${message.subject.replaceAll('<', '&lt;')}</span></li>`,
    );
  }
  sections.push(`<h2>${locale}</h2><ul>${rows.join('')}</ul>`);
}
writeFileSync(
  join(out, 'index.html'),
  `<!doctype html><meta charset="utf-8"><title>Parley emails</title>${sections.join('')}\n`,
);
console.log(
  `emails: ${names.length} templates in ${locales.length} languages rendered into ${out}`,
);
