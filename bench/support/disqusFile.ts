// Writes a Disqus export of `comments` posts for the import bench: `threads` threads on
// `origin`, authors drawn from a pool (a third of them guests without an address), replies at
// mixed depths (a reply answers a recent post of its thread, so chains grow deep), one reply in
// fifty written before its parent (the importer must hold it), one post in a hundred spam. The
// same arguments write the same file (a seeded generator). Streamed to disk: the file is never
// whole in memory.
import { seededRandom as random } from './seededRandom';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export interface DisqusFileOptions {
  path: string;
  comments: number;
  threads: number;
  authors: number;
  origin: string;
  seed?: number;
}

const WORDS =
  'the a comment thread article reader point fair agree disagree because evidence source link think read again later really good bad interesting'.split(
    ' ',
  );

export async function writeDisqusFile(options: DisqusFileOptions): Promise<void> {
  const { path, comments, threads, authors, origin } = options;
  const next = random(options.seed ?? 42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(
    '<?xml version="1.0" encoding="utf-8"?>\n<disqus xmlns="http://disqus.com" xmlns:dsq="http://disqus.com/disqus-internals">\n',
  );
  const start = Date.parse('2015-01-01T00:00:00Z');
  for (let t = 0; t < threads; t++) {
    await write(
      `<thread dsq:id="t${t}"><id/><forum>bench</forum><link>${origin}/articles/${t}/</link><title>Article ${t}</title>` +
        `<createdAt>${new Date(start + t * 3_600_000).toISOString().replace('.000', '')}</createdAt>` +
        '<isClosed>false</isClosed><isDeleted>false</isDeleted></thread>\n',
    );
  }
  // Per thread, its recent posts: a reply answers one of them.
  const recent: string[][] = Array.from({ length: threads }, () => []);
  const held: string[] = [];
  for (let c = 0; c < comments; c++) {
    const thread = Math.floor(next() * threads);
    const pool = recent[thread] as string[];
    const reply = pool.length > 0 && next() < 0.6;
    const parent = reply ? pick(pool.slice(-8)) : null;
    const a = Math.floor(next() * authors);
    const guest = a % 3 === 0;
    const body = Array.from({ length: 8 + Math.floor(next() * 40) }, () => pick(WORDS)).join(' ');
    const post =
      `<post dsq:id="p${c}"><id/><message><![CDATA[<p>${body}</p><p>More: <a href="https://example.org/${c}">source</a> <b>${c}</b></p>]]></message>` +
      `<createdAt>${new Date(start + 60_000 * c).toISOString().replace('.000', '')}</createdAt>` +
      `<isDeleted>false</isDeleted><isSpam>${c % 100 === 99 ? 'true' : 'false'}</isSpam>` +
      `<author>${guest ? '<email/>' : `<email>reader${a}@example.com</email>`}<name>Reader ${a}</name>` +
      `<isAnonymous>${guest}</isAnonymous>${guest ? '' : `<username>reader${a}</username>`}</author>` +
      `<thread dsq:id="t${thread}"/>${parent ? `<parent dsq:id="${parent}"/>` : ''}</post>\n`;
    pool.push(`p${c}`);
    if (pool.length > 16) pool.shift();
    // One reply in fifty is written after the next few posts: read before its parent's
    // siblings, and sometimes before a post that replies to it.
    if (reply && c % 50 === 0) held.push(post);
    else await write(post);
    if (held.length > 0 && c % 50 === 7) await write(held.shift() as string);
  }
  for (const post of held) await write(post);
  await write('</disqus>\n');
  out.end();
  await once(out, 'finish');
}
