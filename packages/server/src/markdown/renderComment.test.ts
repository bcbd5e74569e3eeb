import { COMMENT_LINK_REL, containsLink, plainText, renderComment } from './renderComment';

/** Every real (unescaped) tag in rendered HTML; escaped markup starts with `&lt;` and is text. */
function tags(html: string): string[] {
  return html.match(/<\/?[a-z][^>]*>/gi) ?? [];
}

/** Every tag name in rendered HTML, to assert nothing outside the allow-list got through. */
function tagNames(html: string): string[] {
  return tags(html).map((tag) => /^<\/?([a-z0-9]+)/i.exec(tag)![1]!.toLowerCase());
}

const ALLOWED = new Set(['p', 'br', 'em', 'strong', 's', 'del', 'a', 'blockquote', 'code', 'pre']);
for (const tag of ['ul', 'ol', 'li']) ALLOWED.add(tag);

describe('renderComment: allowed constructs', () => {
  it('renders emphasis, strong and strikethrough', () => {
    expect(renderComment('*a* **b** ~~c~~')).toBe('<p><em>a</em> <strong>b</strong> <s>c</s></p>');
  });

  it('turns a single newline into a line break', () => {
    expect(renderComment('one\ntwo')).toBe('<p>one<br />\ntwo</p>');
  });

  it('renders quotes, inline code, fenced code and lists', () => {
    expect(renderComment('> quoted')).toBe('<blockquote>\n<p>quoted</p>\n</blockquote>');
    expect(renderComment('use `x < y`')).toBe('<p>use <code>x &lt; y</code></p>');
    expect(renderComment('```js\nif (a < b) {}\n```')).toBe(
      '<pre><code class="language-js">if (a &lt; b) {}\n</code></pre>',
    );
    expect(renderComment('- a\n- b')).toBe('<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
    expect(renderComment('3. a\n4. b')).toBe('<ol start="3">\n<li>a</li>\n<li>b</li>\n</ol>');
  });

  it('renders http, https and mailto links with rel and target', () => {
    const html = renderComment(
      '[a](http://a.example) [b](https://b.example) [c](mailto:c@c.example)',
    );
    expect(html).toBe(
      '<p>' +
        `<a href="http://a.example" rel="${COMMENT_LINK_REL}" target="_blank">a</a> ` +
        `<a href="https://b.example" rel="${COMMENT_LINK_REL}" target="_blank">b</a> ` +
        `<a href="mailto:c@c.example" rel="${COMMENT_LINK_REL}" target="_blank">c</a>` +
        '</p>',
    );
    expect(COMMENT_LINK_REL).toBe('nofollow ugc noopener');
  });

  it('linkifies bare URLs, www hosts, emails and autolinks', () => {
    const html = renderComment('https://x.example/p?q=1 www.y.com z@z.com <https://w.example>');
    expect(html).toContain('<a href="https://x.example/p?q=1" rel="nofollow ugc noopener"');
    expect(html).toContain('<a href="http://www.y.com"');
    expect(html).toContain('<a href="mailto:z@z.com"');
    expect(html).toContain('<a href="https://w.example"');
  });

  it('keeps headings, images, tables and rules as plain text', () => {
    expect(renderComment('# Title')).toBe('<p># Title</p>');
    expect(renderComment('Title\n===')).toBe('<p>Title<br />\n===</p>');
    expect(renderComment('---')).toBe('<p>---</p>');
    expect(tagNames(renderComment('![alt](https://x.example/i.png)'))).not.toContain('img');
    expect(tagNames(renderComment('| a |\n|---|\n| 1 |'))).not.toContain('table');
  });

  it('uses no typographer replacements', () => {
    expect(renderComment('"quotes" -- (c)')).toBe('<p>"quotes" -- (c)</p>');
  });
});

describe('renderComment: hostile input', () => {
  const vectors: [string, string][] = [
    ['script tag', '<script>alert(1)</script>'],
    ['img onerror', '<img src=x onerror=alert(1)>'],
    ['svg onload', '<svg/onload=alert(1)>'],
    ['iframe', '<iframe src="https://evil.example"></iframe>'],
    ['style tag', '<style>body{display:none}</style>'],
    ['nested malformed markup', '<<script>script>alert(1)<</script>/script>'],
    ['unclosed tag', '<a href="javascript:alert(1)"'],
    ['attribute breakout in a link title', '[a](https://x.example "t\\" onmouseover=\\"alert(1)")'],
    ['html comment', '<!-- <script>alert(1)</script> -->'],
    ['entity-encoded tag', '&lt;script&gt;alert(1)&lt;/script&gt;'],
  ];

  it.each(vectors)('escapes %s', (_name, source) => {
    const html = renderComment(source);
    expect(tagNames(html).every((tag) => ALLOWED.has(tag))).toBe(true);
    for (const tag of tags(html)) {
      expect(tag).not.toMatch(/\son\w+=/i);
      expect(tag).not.toMatch(/javascript:/i);
    }
  });

  it('shows raw HTML as text', () => {
    expect(renderComment('<b>bold</b>')).toBe('<p>&lt;b&gt;bold&lt;/b&gt;</p>');
  });

  const badLinks: [string, string][] = [
    ['javascript:', '[x](javascript:alert(1))'],
    ['JavaScript: in mixed case', '[x](JaVaScRiPt:alert(1))'],
    ['javascript: with an entity', '[x](jav&#x09;ascript:alert(1))'],
    ['javascript: autolink', '<javascript:alert(1)>'],
    ['data: URI', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['vbscript:', '[x](vbscript:msgbox(1))'],
    ['file:', '[x](file:///etc/passwd)'],
    ['protocol-relative', '[x](//evil.example)'],
    ['relative path', '[x](/admin)'],
    ['reference-style javascript:', '[x][1]\n\n[1]: javascript:alert(1)'],
  ];

  it.each(badLinks)('renders a %s link as text', (_name, source) => {
    const html = renderComment(source);
    expect(tagNames(html)).not.toContain('a');
    expect(containsLink(source)).toBe(false);
  });

  it('replaces any rel or target an attacker might add', () => {
    const html = renderComment('[x](https://x.example)');
    expect(html.match(/rel=/g)).toHaveLength(1);
    expect(html.match(/target=/g)).toHaveLength(1);
  });
});

describe('renderComment: images (the site allows them)', () => {
  const prefix = 'https://parley.example/uploads/images/';
  const own = `${prefix}0123456789abcdef-800x600.webp`;
  // What the resolvers pass: the author's own uploads this comment names, with their sizes.
  const images = new Map([[own, { width: 800, height: 600 }]]);
  const render = (source: string) => renderComment(source, { images });

  it('shows the author’s uploads as lazy images sized from their records, with their description', () => {
    expect(render(`Look: ![a "red" fox](${own})`)).toBe(
      `<p>Look: <img src="${own}" alt="a &quot;red&quot; fox" width="800" height="600" loading="lazy" /></p>`,
    );
    // Escapes and entities are the description's text too.
    expect(render(`![Tom &amp; Jerry \\*x\\*](${own})`)).toContain('alt="Tom &amp; Jerry *x*"');
  });

  it('never shows another image: a remote one, or an upload it was not given, becomes a link', () => {
    expect(render('![tracker](https://evil.example/pixel.gif)')).toBe(
      '<p><a href="https://evil.example/pixel.gif" rel="nofollow ugc noopener" target="_blank">tracker</a></p>',
    );
    for (const url of [
      'https://evil.example/uploads/images/0123456789abcdef-800x600.webp',
      // Someone else's upload, or a size written into a name: not in the map, not an image.
      `${prefix}fedcba9876543210-1x99999.webp`,
      `${own}?x=1`,
    ]) {
      expect(render(`![x](${url})`)).not.toContain('<img');
    }
  });

  it('keeps raw <img> markup and non-http image URLs as text', () => {
    expect(render('<img src="https://evil.example/a.png">')).not.toContain('<img');
    expect(render(`![x](javascript:alert(1))`)).not.toMatch(/<img|href="javascript/);
  });

  it('keeps image syntax as text while the site does not allow images', () => {
    expect(renderComment(`![fox](${own})`)).not.toContain('<img');
  });
});

describe('containsLink', () => {
  it.each([
    ['a Markdown link', '[x](https://x.example)'],
    ['a bare URL', 'see https://x.example'],
    ['a www host', 'see www.x.com'],
    ['an email address', 'mail me@x.com'],
    ['an autolink', '<https://x.example>'],
  ])('finds %s', (_name, source) => {
    expect(containsLink(source)).toBe(true);
  });

  it('ignores text without links and links inside code', () => {
    expect(containsLink('just words, no links')).toBe(false);
    expect(containsLink('`https://x.example`')).toBe(false);
  });
});

describe('plainText', () => {
  it('drops emphasis and decodes entities and escapes', () => {
    expect(plainText('**bad** wo*rd* &amp; \\*x\\*')).toBe('bad word & *x*');
  });

  it('keeps block and line boundaries as newlines', () => {
    expect(plainText('a\nb\n\n> c')).toBe('a\nb\nc');
  });

  it('keeps code, link text and link targets (word rules see where a link goes)', () => {
    expect(plainText('`code` [label](https://target.example)').split(/\s+/)).toEqual([
      'code',
      'https://target.example',
      'label',
    ]);
  });
});
