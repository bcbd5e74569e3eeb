import { AkismetError, akismetComment, createAkismetClient } from './akismet';
import { AKISMET_TEST_KEY, useAkismetStandIn } from './testing/akismetStandIn';

const running = useAkismetStandIn();

const comment = (body: string) =>
  akismetComment(
    { username: 'sam', email: 'sam@example.com' },
    'https://news.example/a',
    body,
    null,
    '203.0.113.9',
    'Mozilla/5.0',
    new Date('2026-11-27T10:00:00Z'),
  );
const client = (apiKey = AKISMET_TEST_KEY, timeoutMs?: number) =>
  createAkismetClient({
    apiKey,
    url: running().url,
    blog: 'https://parley.example',
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });

describe('the Akismet client', () => {
  it('sends what Akismet judges by and reads its three verdicts', async () => {
    expect(await client().check(comment('A fair point.'))).toBe('ham');
    expect(await client().check(comment('cheap viagra'))).toBe('spam');
    expect(await client().check(comment('blatant viagra'))).toBe('discard');
    expect(running().requests[0]).toEqual({
      path: '/1.1/comment-check',
      fields: {
        api_key: AKISMET_TEST_KEY,
        blog: 'https://parley.example',
        user_ip: '203.0.113.9',
        user_agent: 'Mozilla/5.0',
        permalink: 'https://news.example/a',
        comment_type: 'comment',
        comment_author: 'sam',
        comment_author_email: 'sam@example.com',
        comment_content: 'A fair point.',
        comment_date_gmt: '2026-11-27T10:00:00.000Z',
      },
    });
  });

  it('reports decisions back, and says what Akismet refused', async () => {
    await client().submit('spam', comment('x'));
    await client().submit('ham', comment('y'));
    expect(running().requests.map((r) => r.path)).toEqual(['/1.1/submit-spam', '/1.1/submit-ham']);
    await expect(client('wrong').check(comment('x'))).rejects.toThrow(
      new AkismetError('Akismet comment-check: Empty "api_key" or invalid key.'),
    );
    await expect(client('wrong').submit('spam', comment('x'))).rejects.toThrow(AkismetError);
  });

  it('gives up after its time-out', async () => {
    running().delay(300);
    await expect(client(AKISMET_TEST_KEY, 50).check(comment('x'))).rejects.toThrow(
      /abort|timeout/i,
    );
  });

  it('leaves out a guest’s placeholder address and calls a reply a reply', () => {
    const fields = akismetComment(
      { username: 'Sam', email: 'guest-1@guests.invalid' },
      'https://news.example/a',
      'hi',
      'parent-1',
      '203.0.113.9',
      '',
      new Date(0),
    );
    expect(fields.comment_author_email).toBeUndefined();
    expect(fields.comment_type).toBe('reply');
  });
});
