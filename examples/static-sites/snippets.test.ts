// The embeds of examples/static-sites, each rendered with sample values and run through the real
// loader (embed.js), so that a snippet and the loader cannot drift apart unnoticed.
import { spawnSync } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { STREAM_PATH, createMessage } from '@parley/contract';
import type { FrameToHost, HostToFrame } from '@parley/contract';
import type { StreamEmbedOptions } from '../../packages/embed/src/createStreamEmbed';
import type { ParleyGlobal } from '../../packages/embed/src/parleyGlobal';
import { verifySsoToken } from '../../packages/server/src/auth/verifySsoToken';
import { SSO_TOKEN_MAX_LIFETIME_SECONDS } from '../../packages/server/src/defaults';
import {
  validateEmail,
  validateUsername,
} from '../../packages/server/src/validation/validateAccount';
import { ParleyThread } from './docusaurus/src/components/ParleyThread';
import { renderAstro, renderEjs, renderHugo, renderLiquid } from './testing/renderTemplates';
import type { Values } from './testing/renderTemplates';

const SERVER = 'https://comments.example';
const README = join(__dirname, '../../packages/embed/README.md');
const snippet = (path: string) => readFileSync(join(__dirname, path), 'utf8');

/**
 * Every option of the loader and its container attribute (null: in code only). `satisfies`
 * makes the type check fail when an option is added, renamed or removed.
 */
const OPTION_ATTRIBUTES = {
  id: null,
  rootURL: null,
  storyURL: 'data-story-url',
  storyID: 'data-story-id',
  commentID: 'data-comment-id',
  autoRender: 'data-auto-render',
  accessToken: 'data-access-token',
  refreshAccessToken: null,
  theme: 'data-theme',
  accentColor: 'data-accent-color',
  sort: 'data-sort',
  locale: 'data-locale',
  customCSSURL: 'data-custom-css-url',
  onEvent: null,
} satisfies Record<keyof StreamEmbedOptions, `data-${string}` | null>;

const KNOWN_OPTIONS: readonly string[] = Object.keys(OPTION_ATTRIBUTES);
const KNOWN_ATTRIBUTES: readonly string[] = Object.values(OPTION_ATTRIBUTES).filter(
  (attribute) => attribute !== null,
);

// --- The page, the loader and what it embeds ---------------------------------------------------

const container = () => document.getElementById('parley-thread')!;
const frames = () => [...document.querySelectorAll('iframe')];

/** Runs embed.js afresh, as the browser does when it meets the script tag. */
async function runEmbedScript() {
  await jest.isolateModulesAsync(async () => {
    await import('../../packages/embed/src/embed');
  });
  // embed.js embeds after the page's own code had its turn (a timer).
  await new Promise((resolve) => setTimeout(resolve));
}

/** Puts a snippet's markup in the page, runs embed.js, and answers the one frame. */
async function embedPage(html: string) {
  document.body.innerHTML = html;
  await runEmbedScript();
  expect(frames()).toHaveLength(1);
  return frames()[0]!;
}

/** The frame's address, checked to be the sample server's stream, as its parameters. */
function streamParams(frame: HTMLIFrameElement) {
  const src = new URL(frame.src);
  expect(src.origin + src.pathname).toBe(SERVER + STREAM_PATH);
  return Object.fromEntries(src.searchParams);
}

/** The markup's contract: one known container with known attributes, one async embed.js. */
function expectLoaderMarkup() {
  const attributes = container()
    .getAttributeNames()
    .filter((name) => name.startsWith('data-'));
  for (const name of attributes) expect(KNOWN_ATTRIBUTES).toContain(name);
  const scripts = document.querySelectorAll('script');
  expect(scripts).toHaveLength(1);
  expect(scripts[0]!.getAttribute('src')).toBe(`${SERVER}/embed.js`);
  expect(scripts[0]!.hasAttribute('async')).toBe(true);
}

/** The frame says it is ready, as the stream does once loaded; answers what the loader sent. */
function frameReady(frame: HTMLIFrameElement) {
  const posted = jest.spyOn(frame.contentWindow!, 'postMessage');
  window.dispatchEvent(
    new MessageEvent('message', {
      data: createMessage<FrameToHost, 'ready'>('ready', {}),
      origin: SERVER,
      source: frame.contentWindow,
    }),
  );
  return posted.mock.calls;
}

// For jose (the server's verifier) in jsdom: WebCrypto, which jsdom lacks, and a TextEncoder
// whose bytes are this realm's Uint8Array (Node's are not, and jose checks `instanceof`).
Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
const NodeTextEncoder = globalThis.TextEncoder;
globalThis.TextEncoder = class extends NodeTextEncoder {
  override encode(input?: string) {
    return new Uint8Array(super.encode(input));
  }
};
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeEach(() => {
  history.replaceState(null, '', '/posts/one#comments');
});

afterEach(() => {
  for (const element of document.querySelectorAll<
    HTMLElement & { parleyEmbed?: { remove(): void } }
  >('[id]')) {
    element.parleyEmbed?.remove();
  }
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  delete (window as { Parley?: ParleyGlobal }).Parley;
  jest.restoreAllMocks();
});

describe('the option list', () => {
  it("is the README's table of options and attributes", () => {
    const readme = readFileSync(README, 'utf8');
    const section = readme.slice(readme.indexOf('### Options'), readme.indexOf('### SSO tokens'));
    const rows = [...section.matchAll(/^\| `(\w+)` +\| (`data-[\w-]+|—)/gm)];
    const documented = Object.fromEntries(
      rows.map(([, option, attribute]) => [option, attribute === '—' ? null : attribute!.slice(1)]),
    );
    expect(documented).toEqual(OPTION_ATTRIBUTES);
  });

  it('names each attribute as the loader reads it (the dataset key, lower-cased)', () => {
    for (const [option, attribute] of Object.entries(OPTION_ATTRIBUTES)) {
      if (attribute === null) continue;
      const datasetKey = attribute
        .slice(5)
        .replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
      expect(datasetKey.toLowerCase()).toBe(option.toLowerCase());
    }
  });

  it('reaches the stream through the attributes', async () => {
    const frame = await embedPage(
      `<div id="parley-thread" data-story-url="https://blog.example/a" data-story-id="s-1"
        data-comment-id="c-1" data-theme="dark" data-accent-color="#c00" data-sort="BEST"
        data-locale="es" data-custom-css-url="https://blog.example/p.css"></div>
      <script src="${SERVER}/embed.js" async></script>`,
    );
    expect(streamParams(frame)).toEqual({
      storyURL: 'https://blog.example/a',
      storyID: 's-1',
      commentID: 'c-1',
      theme: 'dark',
      accentColor: '#c00',
      sort: 'BEST',
      locale: 'es',
      customCSSURL: 'https://blog.example/p.css',
      origin: location.origin,
    });
  });
});

// --- Hugo, Jekyll, Hexo: templates that print the markup --------------------------------------

/** A story URL with `&` and `"`: it arrives whole only if the snippet escapes it. */
const TRICKY_URL = 'https://blog.example/posts/say-"hi"/?a=1&b=2';

const templates = [
  {
    name: 'Hugo partial',
    render: (values: Values) => renderHugo(snippet('hugo/layouts/partials/parley.html'), values),
    full: {
      '.Permalink': TRICKY_URL,
      '.Params.parley_story_id': 'story-7',
      '.Lang': 'es',
      '.Site.Params.parley.theme': 'dark',
      '.Site.Params.parley.url': SERVER,
    },
    bare: {
      '.Permalink': 'https://blog.example/posts/hello/',
      '.Params.parley_story_id': undefined,
      '.Lang': undefined,
      '.Site.Params.parley.theme': undefined,
      '.Site.Params.parley.url': SERVER,
    },
  },
  {
    name: 'Jekyll include',
    render: (values: Values) => renderLiquid(snippet('jekyll/_includes/parley.html'), values),
    full: {
      'site.url': 'https://blog.example',
      'page.url': '/posts/say-"hi"/?a=1&b=2',
      'page.parley_story_id': 'story-7',
      'site.lang': 'es',
      'site.parley.theme': 'dark',
      'site.parley.url': SERVER,
    },
    bare: {
      'site.url': 'https://blog.example',
      'page.url': '/posts/hello/',
      'page.parley_story_id': undefined,
      'site.lang': undefined,
      'site.parley.theme': undefined,
      'site.parley.url': SERVER,
    },
  },
  {
    name: 'Hexo partial',
    render: (values: Values) =>
      renderEjs(snippet('hexo/layout/_partial/parley.ejs'), {
        page: {
          comments: values['comments'] !== 'false',
          permalink: values['permalink'],
          parley_story_id: values['storyID'],
        },
        theme: { parley: { url: SERVER, theme: values['theme'] } },
        config: { language: values['language'] === undefined ? [] : [values['language'], 'en'] },
      }),
    full: { permalink: TRICKY_URL, storyID: 'story-7', language: 'es', theme: 'dark' },
    bare: { permalink: 'https://blog.example/posts/hello/' },
  },
];

describe.each(templates)('the $name', ({ render, full, bare }) => {
  it('embeds the story with its id, language and theme', async () => {
    const frame = await embedPage(render(full));
    expectLoaderMarkup();
    expect(streamParams(frame)).toEqual({
      storyURL: TRICKY_URL,
      storyID: 'story-7',
      locale: 'es',
      theme: 'dark',
      origin: location.origin,
    });
  });

  it('adds no attribute for a setting left out', async () => {
    const frame = await embedPage(render(bare));
    expectLoaderMarkup();
    expect(container().getAttributeNames()).toEqual(['id', 'data-story-url']);
    expect(streamParams(frame)).toEqual({
      storyURL: 'https://blog.example/posts/hello/',
      theme: 'light',
      origin: location.origin,
    });
  });
});

it('the Hexo partial prints nothing for a post with comments: false', () => {
  const html = templates[2]!.render({ comments: 'false', permalink: TRICKY_URL });
  expect(html.trim()).toBe('');
});

// --- WordPress: PHP, with the signed-in user's SSO token ----------------------------------------

const SSO_SECRET = 'wordpress-site-key-secret';

/**
 * Stubs of the WordPress functions the snippet calls; argv: the reader (`signed-in`,
 * `signed-out`), the snippet, and for `names` a JSON list of display names to make usernames of.
 */
const WORDPRESS_DRIVER = `<?php
[, $reader, $snippet] = $argv;
if ($reader !== 'names') {
  define('PARLEY_URL', '${SERVER}');
  define('PARLEY_THEME', 'dark');
}
define('PARLEY_SSO_SECRET', '${SSO_SECRET}');
function is_user_logged_in() { return $GLOBALS['reader'] === 'signed-in'; }
function wp_get_current_user() {
  return (object) ['ID' => 42, 'user_email' => 'ada@blog.example', 'display_name' => 'Ada Lovelace'];
}
function esc_attr($text) { return htmlspecialchars((string) $text, ENT_QUOTES, 'UTF-8'); }
function esc_url($url) { return htmlspecialchars((string) $url, ENT_QUOTES, 'UTF-8'); }
function get_permalink() { return 'https://blog.example/?p=7&lang=es'; }
function get_the_ID() { return 7; }
function get_post_meta($id, $key, $single) {
  return $id === 7 && $key === 'parley_story_id' && $single ? 'story-7' : '';
}
function get_bloginfo($show) { return $show === 'language' ? 'es-ES' : ''; }
function nocache_headers() { file_put_contents('php://stderr', "nocache_headers\\n"); }
require $snippet;
if ($reader === 'names') {
  $user = fn ($name) => (object) ['ID' => 42, 'display_name' => $name];
  echo json_encode(array_map(fn ($name) => parley_username($user($name)), json_decode($argv[3])));
}
`;

/**
 * Runs the snippet in PHP as WordPress includes it; answers what it printed and the stubs it
 * called. Any PHP warning or notice fails the test.
 */
function runWordPress(reader: 'signed-in' | 'signed-out' | 'names', ...args: string[]) {
  const path = join(__dirname, 'wordpress/parley-comments.php');
  const settings = ['-d', 'error_reporting=-1', '-d', 'display_errors=stderr'];
  const run = spawnSync('php', [...settings, '--', reader, path, ...args], {
    input: WORDPRESS_DRIVER,
    encoding: 'utf8',
  });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error('php is not installed: apt-get install php-cli (as .ci/run does)');
  }
  if (run.error || run.status !== 0) {
    throw new Error(`php exited with ${run.status}: ${run.error ?? run.stderr}`);
  }
  return { html: run.stdout, calls: run.stderr.split('\n').filter(Boolean) };
}

describe('the WordPress snippet', () => {
  it('signs the WordPress user in with a token the server verifies', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { html, calls } = runWordPress('signed-in');
    const after = Math.ceil(Date.now() / 1000);
    // A page that carries a token is never to be cached.
    expect(calls).toEqual(['nocache_headers']);
    const frame = await embedPage(html);
    expectLoaderMarkup();
    expect(streamParams(frame)).toEqual({
      storyURL: 'https://blog.example/?p=7&lang=es',
      storyID: 'story-7',
      locale: 'es-ES',
      theme: 'dark',
      origin: location.origin,
    });
    // The loader reads the token from the container and signs in with it once the frame is up.
    const token = container().dataset['accessToken']!;
    expect(frameReady(frame)).toContainEqual([
      createMessage<HostToFrame, 'login'>('login', { token }),
      SERVER,
    ]);

    const key = { secret: SSO_SECRET, expiresAt: null, revoked: false };
    const { user, iat, exp } = await verifySsoToken(token, [key], new Date());
    expect(user).toEqual({
      id: '42',
      email: 'ada@blog.example',
      username: 'Ada_Lovelace',
      badges: [],
    });
    // What signInWithSso checks next: the name and address rules, and the token's lifetime.
    expect(validateUsername(user.username, 'token')).toBe('Ada_Lovelace');
    expect(validateEmail(user.email, 'token').address).toBe('ada@blog.example');
    expect(iat).toBeGreaterThanOrEqual(before);
    expect(iat).toBeLessThanOrEqual(after);
    expect(exp - iat).toBe(3600);
    expect(exp - iat).toBeLessThanOrEqual(SSO_TOKEN_MAX_LIFETIME_SECONDS);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(decodeJwt(token).jti).toMatch(/^[0-9a-f]{32}$/);

    const otherKey = { ...key, secret: 'another-site-key-secret' };
    await expect(verifySsoToken(token, [otherKey], new Date())).rejects.toMatchObject({
      extensions: { code: 'TOKEN_INVALID' },
    });
  });

  it('signs a new token for every page view', () => {
    const tokens = [runWordPress('signed-in'), runWordPress('signed-in')].map(
      ({ html }) => /data-access-token="([^"]+)"/.exec(html)![1]!,
    );
    expect(tokens[0]).not.toBe(tokens[1]);
    expect(decodeJwt(tokens[0]!).jti).not.toBe(decodeJwt(tokens[1]!).jti);
  });

  it('prints no token for a reader not signed in', async () => {
    const { html, calls } = runWordPress('signed-out');
    expect(calls).toEqual([]);
    const frame = await embedPage(html);
    expectLoaderMarkup();
    expect(container().hasAttribute('data-access-token')).toBe(false);
    expect(frameReady(frame).map(([message]) => (message as { type: string }).type)).toEqual([
      'theme',
    ]);
  });

  it('makes a name Parley accepts of any display name', () => {
    const names = [
      'Ada Lovelace',
      'Zoë d’Été',
      'Al',
      '---',
      'A very long display name, longer than thirty',
    ];
    const { html } = runWordPress('names', JSON.stringify(names));
    const usernames: string[] = JSON.parse(html);
    expect(usernames).toEqual([
      'Ada_Lovelace',
      'Zoë_d_Été',
      'user_42',
      'user_42',
      'A_very_long_display_name_longe',
    ]);
    for (const username of usernames) expect(validateUsername(username)).toBe(username);
  });
});

// --- Astro and Docusaurus: components ----------------------------------------------------------

/**
 * The option names a component passes to `createStreamEmbed(…)` in its source: none, or the keys
 * of an object literal (anything else fails, as the test could not read it).
 */
function optionsPassed(source: string): string[] {
  const calls = [...source.matchAll(/createStreamEmbed(?:\?\.)?\(([^)]*)\)/g)];
  expect(calls.length).toBeGreaterThan(0);
  return calls.flatMap(([, argument]) => {
    if (argument!.trim() === '') return [];
    const literal = /^\s*\{([^}]*)\}\s*$/.exec(argument!)?.[1];
    if (literal === undefined) throw new Error(`Not an object literal: ${argument}`);
    return literal
      .split(',')
      .map((entry) => entry.split(':')[0]!.trim())
      .filter(Boolean);
  });
}

describe('the Astro component', () => {
  const source = snippet('astro/Parley.astro');

  it('passes only options the loader knows', () => {
    for (const name of optionsPassed(source)) expect(KNOWN_OPTIONS).toContain(name);
  });

  it('embeds the page, and each page a view transition brings in', async () => {
    const props = { server: SERVER, storyID: 'story-7', locale: 'es', theme: 'dark' };
    const { html, script } = renderAstro(source, props);
    const frame = await embedPage(html);
    expectLoaderMarkup();
    expect(streamParams(frame)).toEqual({
      storyURL: `${location.origin}/posts/one`,
      storyID: 'story-7',
      locale: 'es',
      theme: 'dark',
      origin: location.origin,
    });

    // The component's module runs once; on the first page embed.js has embedded already.
    new Function(script)();
    document.dispatchEvent(new Event('astro:page-load'));
    expect(frames()).toHaveLength(1);
    expect(frames()[0]).toBe(frame);

    // A navigation: the old thread goes, the new page's container gets one of its own.
    document.dispatchEvent(new Event('astro:before-swap'));
    expect(frames()).toEqual([]);
    document.body.innerHTML = renderAstro(source, { server: SERVER }).html;
    history.pushState(null, '', '/posts/two');
    document.dispatchEvent(new Event('astro:page-load'));
    expect(frames()).toHaveLength(1);
    expect(streamParams(frames()[0]!)).toEqual({
      storyURL: `${location.origin}/posts/two`,
      theme: 'light',
      origin: location.origin,
    });
  });
});

describe('the Docusaurus component', () => {
  /** Mounts the component in a React root; answers how to re-render and unmount it. */
  async function mount(props: Parameters<typeof ParleyThread>[0]) {
    const root = createRoot(document.body.appendChild(document.createElement('main')));
    await act(async () => root.render(createElement(ParleyThread, props)));
    return {
      update: (next: typeof props) =>
        act(async () => root.render(createElement(ParleyThread, next))),
      unmount: () => act(async () => root.unmount()),
    };
  }

  it('passes only options the loader knows', () => {
    const source = snippet('docusaurus/src/components/ParleyThread.tsx');
    for (const name of optionsPassed(source)) expect(KNOWN_OPTIONS).toContain(name);
  });

  it('loads embed.js once, embeds on mount, follows the theme, and removes on unmount', async () => {
    const props = { server: SERVER, storyID: 'story-7', locale: 'es', theme: 'dark' } as const;
    const first = await mount(props);
    const script = document.querySelector('script')!;
    expect(script.getAttribute('src')).toBe(`${SERVER}/embed.js`);
    expect(script.async).toBe(true);
    // The browser runs the script, then fires its load event.
    await jest.isolateModulesAsync(async () => {
      await import('../../packages/embed/src/embed');
    });
    await act(async () => script.dispatchEvent(new Event('load')));
    await act(() => new Promise((resolve) => setTimeout(resolve)));
    expect(frames()).toHaveLength(1);
    const frame = frames()[0]!;
    expect(streamParams(frame)).toEqual({
      storyURL: `${location.origin}/posts/one`,
      storyID: 'story-7',
      locale: 'es',
      theme: 'dark',
      origin: location.origin,
    });

    const handle = (container() as { parleyEmbed?: { setTheme(theme: string): void } })
      .parleyEmbed!;
    const setTheme = jest.spyOn(handle, 'setTheme');
    await first.update({ ...props, theme: 'light' });
    expect(setTheme).toHaveBeenCalledWith('light');
    expect(frames()).toHaveLength(1);
    expect(frames()[0]).toBe(frame);

    // Unmounting takes the container away; remove() is what ends the embed's listeners.
    const element = container() as { parleyEmbed?: unknown };
    await first.unmount();
    expect(frames()).toEqual([]);
    expect(element.parleyEmbed).toBeUndefined();

    // Another page: embed.js is there already, no second script.
    const second = await mount({ server: SERVER, storyURL: 'https://docs.example/blog/two' });
    expect(document.querySelectorAll('script')).toHaveLength(1);
    expect(streamParams(frames()[0]!).storyURL).toBe('https://docs.example/blog/two');
    await second.unmount();
  });

  it('calls createStreamEmbed with its options and remove() when unmounted', async () => {
    const thread = { remove: jest.fn(), setTheme: jest.fn() };
    const createStreamEmbed = jest.fn((_options: Partial<StreamEmbedOptions>) => thread);
    (window as { Parley?: unknown }).Parley = { createStreamEmbed };
    const { unmount } = await mount({ server: SERVER, locale: 'es', theme: 'auto' });
    expect(createStreamEmbed.mock.calls).toEqual([
      [
        {
          id: 'parley-thread',
          storyURL: undefined,
          storyID: undefined,
          locale: 'es',
          theme: 'auto',
        },
      ],
    ]);
    expect(thread.remove).not.toHaveBeenCalled();
    await unmount();
    expect(thread.remove).toHaveBeenCalledTimes(1);
  });
});
