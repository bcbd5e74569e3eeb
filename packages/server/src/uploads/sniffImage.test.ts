import { tinyPng } from './testImages';
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '../defaults';
import { ParleyError } from '../ParleyError';
import { sniffAvatar } from './sniffImage';

/** A 1×1 GIF89a. */
// prettier-ignore
const GIF = Uint8Array.from([
  ...Buffer.from('GIF89a', 'latin1'),
  0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00,
  0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
]);

/** The start of a JFIF JPEG: SOI, then an APP0 "JFIF" segment. */
// prettier-ignore
const JPEG = Uint8Array.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0', 'latin1'),
  0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
]);

/** The start of a lossy WebP: RIFF container, "WEBP", a "VP8 " chunk header. */
function webp(): Uint8Array {
  const payload = Buffer.concat([Buffer.from('WEBPVP8 ', 'latin1'), Buffer.alloc(4 + 10)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(payload.length);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, payload]);
}

async function failure(promise: Promise<unknown>): Promise<ParleyError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ParleyError) return error;
    throw error;
  }
  throw new Error('expected a ParleyError');
}

/** `bytes` padded with zeros to `size` bytes, keeping its header. */
function padded(bytes: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set(bytes);
  return out;
}

describe('sniffAvatar', () => {
  it.each<[string, () => Uint8Array, string]>([
    ['PNG', tinyPng, 'image/png'],
    ['JPEG', () => JPEG, 'image/jpeg'],
    ['GIF', () => GIF, 'image/gif'],
    ['WebP', webp, 'image/webp'],
  ])('accepts a %s by its bytes', async (_name, make, mime) => {
    await expect(sniffAvatar(make())).resolves.toBe(mime);
  });

  it('covers every accepted type', () => {
    expect([...AVATAR_TYPES].sort()).toEqual([
      'image/gif',
      'image/jpeg',
      'image/png',
      'image/webp',
    ]);
  });

  it.each<[string, Uint8Array]>([
    ['a text file renamed .png', new TextEncoder().encode('just some notes, saved as cat.png\n')],
    ['an HTML page', new TextEncoder().encode('<!doctype html><script>alert(1)</script>')],
    [
      'an SVG (can carry script)',
      new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      ),
    ],
    ['a PDF', new TextEncoder().encode('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n')],
    [
      'a ZIP',
      Uint8Array.from([
        0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0,
      ]),
    ],
    ['an empty file', new Uint8Array()],
  ])('refuses %s with UPLOAD_TYPE_NOT_ALLOWED', async (_name, bytes) => {
    const error = await failure(sniffAvatar(bytes));
    expect(error.code).toBe('UPLOAD_TYPE_NOT_ALLOWED');
    expect(error.extensions.field).toBe('file');
  });

  it('names the detected type when it recognises one', async () => {
    const error = await failure(sniffAvatar(new TextEncoder().encode('%PDF-1.4\n')));
    expect(error.message).toContain('application/pdf');
  });

  it('accepts an image of exactly the maximum size', async () => {
    await expect(sniffAvatar(padded(tinyPng(), AVATAR_MAX_BYTES))).resolves.toBe('image/png');
  });

  it('refuses an image one byte over the maximum with UPLOAD_TOO_LARGE', async () => {
    const error = await failure(sniffAvatar(padded(tinyPng(), AVATAR_MAX_BYTES + 1)));
    expect(error.code).toBe('UPLOAD_TOO_LARGE');
    expect(error.extensions.field).toBe('file');
  });

  it('checks the size before the type', async () => {
    const text = padded(new TextEncoder().encode('not an image'), AVATAR_MAX_BYTES + 1);
    expect((await failure(sniffAvatar(text))).code).toBe('UPLOAD_TOO_LARGE');
  });
});
