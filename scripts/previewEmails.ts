// Renders every email template (packages/server/src/email/templates.ts) with its sample data
// (sampleEmails.ts) into `test-output/emails/` (or the folder given): `<name>.html` and
// `<name>.txt` each, and an `index.html` linking them — to look at in a browser and a mail client
// before a change to any email lands. `npm run emails:preview`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EMAIL_TEMPLATES, email } from '../packages/server/src/email/templates';
import type { EmailTemplateName } from '../packages/server/src/email/templates';
import { SAMPLE_EMAILS } from '../packages/server/src/email/sampleEmails';

const out = resolve(process.argv[2] ?? 'test-output/emails');
mkdirSync(out, { recursive: true });
const names = Object.keys(EMAIL_TEMPLATES) as EmailTemplateName[];
const rows: string[] = [];
for (const name of names) {
  const message = email(name, 'reader@example.com', SAMPLE_EMAILS[name] as never);
  writeFileSync(join(out, `${name}.html`), message.html ?? '');
  writeFileSync(join(out, `${name}.txt`), `Subject: ${message.subject}\n\n${message.text}`);
  rows.push(
    `<li><a href="${name}.html">${name}</a> (<a href="${name}.txt">text</a>): ${message.subject.replaceAll('<', '&lt;')}</li>`,
  );
}
writeFileSync(
  join(out, 'index.html'),
  `<!doctype html><meta charset="utf-8"><title>Parley emails</title><ul>${rows.join('')}</ul>\n`,
);
console.log(`emails: ${names.length} templates rendered into ${out}`);
