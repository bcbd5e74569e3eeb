import { createTestYoga } from '../testing/createTestYoga';
import { PAYLOAD_TOO_LARGE_STATUS, bodyLimitOptions } from './bodyLimit';
import { REQUEST_BODY_MAX_BYTES } from '../../defaults';

const LIMIT = 1024;

function bodyOf(bytes: number): string {
  const base = JSON.stringify({ query: '{ hello }', variables: { pad: '' } });
  return base.replace('"pad":""', `"pad":"${'x'.repeat(bytes - base.length)}"`);
}

describe('request body limit', () => {
  it('defaults to REQUEST_BODY_MAX_BYTES', () => {
    expect(bodyLimitOptions()).toEqual({ maxRequestBodySize: REQUEST_BODY_MAX_BYTES });
  });

  it('accepts a body at the limit', async () => {
    const { yoga } = createTestYoga({ maxRequestBodyBytes: LIMIT });
    const response = await yoga.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodyOf(LIMIT),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).data).toEqual({ hello: 'world' });
  });

  it(`answers ${PAYLOAD_TOO_LARGE_STATUS} with UPLOAD_TOO_LARGE past the limit`, async () => {
    const { yoga } = createTestYoga({ maxRequestBodyBytes: LIMIT });
    const response = await yoga.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodyOf(LIMIT + 1),
    });
    expect(response.status).toBe(PAYLOAD_TOO_LARGE_STATUS);
    expect((await response.json()).errors[0].extensions).toEqual({ code: 'UPLOAD_TOO_LARGE' });
  });

  it('stops a streamed body without Content-Length too', async () => {
    const { yoga } = createTestYoga({ maxRequestBodyBytes: LIMIT });
    const bytes = new TextEncoder().encode(bodyOf(LIMIT * 4));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 256) {
          controller.enqueue(bytes.slice(offset, offset + 256));
        }
        controller.close();
      },
    });
    const response = await yoga.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(PAYLOAD_TOO_LARGE_STATUS);
  });
});
