import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OUTBOX_DIR } from '../../email/createMailer';
import type { OutboxMessage } from '../../email/createMailer';

/** A sign-up code in a message: on a line of its own, indented four spaces. */
export const SIGN_UP_CODE_LINE = /^ {4}(\d{6})$/m;

/**
 * The latest message to `email` that matches `pattern` (its text, and the match), in a real
 * server's outbox (`<dataDir>/outbox`), as a reader would find it in their inbox. Mail is sent in
 * the background, so this waits for it up to `timeoutMs`. For tests against a running server;
 * in-process tests read `api.mail`.
 */
export async function matchFromOutbox(
  dataDir: string,
  email: string,
  pattern: RegExp,
  timeoutMs = 5000,
): Promise<{ text: string; match: RegExpExecArray }> {
  const outbox = join(dataDir, OUTBOX_DIR);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // File names start with the time of sending, so the last match is the latest.
    const files = (await readdir(outbox).catch(() => [] as string[])).sort().reverse();
    for (const file of files) {
      const message = JSON.parse(await readFile(join(outbox, file), 'utf8')) as OutboxMessage;
      if (message.to.toLowerCase() !== email.toLowerCase()) continue;
      const match = pattern.exec(message.text);
      if (match !== null) return { text: message.text, match };
    }
    if (Date.now() > deadline) throw new Error(`No message to ${email} matched ${pattern}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The code of the latest sign-up email to `email` in a real server's outbox. */
export async function signUpCodeFromOutbox(
  dataDir: string,
  email: string,
  timeoutMs = 5000,
): Promise<string> {
  const { match } = await matchFromOutbox(dataDir, email, SIGN_UP_CODE_LINE, timeoutMs).catch(
    () => {
      throw new Error(`No sign-up code was filed for ${email}`);
    },
  );
  return match[1] ?? '';
}
