import { createHash } from 'node:crypto';
import { createDocumentSecurity, hashSource } from './documentSecurity';
import { createOriginPolicy } from './plugins/originPolicy';

const originPolicy = createOriginPolicy({
  getAllowedOrigins: async () => ['https://news.example'],
  publicUrl: 'https://comments.example',
});

describe('createDocumentSecurity', () => {
  it('hashes inline code as CSP sources', () => {
    const digest = createHash('sha256').update('a=1', 'utf8').digest('base64');
    expect(hashSource('a=1')).toBe(`'sha256-${digest}'`);
  });

  it('allows a framed page its inline code by hash, its custom stylesheet and the sites', async () => {
    const documents = createDocumentSecurity({
      originPolicy,
      publicUrl: 'https://comments.example',
      stylesheets: async () => ['https://cdn.example/theme.css?v=2'],
    });
    const headers = await documents.headers({
      framed: true,
      inline: { scripts: ['go()'], styles: ['p{}'], styleAttributes: ['color-scheme:dark'] },
    });
    expect(headers['Content-Security-Policy']!.split('; ')).toEqual([
      "default-src 'none'",
      `script-src 'self' ${hashSource('go()')}`,
      `style-src 'self' ${hashSource('p{}')} https://cdn.example`,
      `style-src-attr 'unsafe-hashes' ${hashSource('color-scheme:dark')}`,
      // Avatars are stored under the public address; the theme's fonts and images beside it.
      "img-src 'self' data: https://comments.example https://cdn.example",
      "font-src 'self' https://cdn.example",
      "connect-src 'self' https://comments.example wss://comments.example",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'self' https://comments.example https://news.example",
    ]);
    expect(headers['x-frame-options']).toBeUndefined();
    expect(headers['cross-origin-opener-policy']).toBeUndefined();
    expect(headers).toMatchObject({
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    });
  });

  it('frames nothing else, isolates the console, and never lets a setting add directives', async () => {
    const documents = createDocumentSecurity({
      originPolicy,
      publicUrl: 'http://127.0.0.1:3000',
      // A URL with a `;` cannot add a directive: only its origin is used.
      stylesheets: async () => ["https://cdn.example/x.css; script-src 'unsafe-inline'", 'nope'],
    });
    const framed = await documents.headers({ framed: true });
    expect(framed['Content-Security-Policy']).toContain("style-src 'self' https://cdn.example;");
    expect(framed['Content-Security-Policy']).not.toContain('unsafe-inline');
    const console = await documents.headers({ framed: false, isolated: true });
    expect(console['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(console['Content-Security-Policy']).toContain("style-src 'self';");
    expect(console['Content-Security-Policy']).toContain("style-src-attr 'none'");
    expect(console['Content-Security-Policy']).toContain(
      "connect-src 'self' http://127.0.0.1:3000 ws://127.0.0.1:3000",
    );
    expect(console['Content-Security-Policy']).toContain("font-src 'self';");
    expect(console).toMatchObject({
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
    });
  });

  it('leaves the custom stylesheet out when it cannot be looked up', async () => {
    const documents = createDocumentSecurity({
      originPolicy,
      stylesheets: () => Promise.reject(new Error('database away')),
    });
    const headers = await documents.headers({ framed: true });
    expect(headers['Content-Security-Policy']).toContain("style-src 'self';");
    expect(headers['Content-Security-Policy']).toContain("connect-src 'self';");
  });
});
