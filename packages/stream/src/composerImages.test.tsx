// Images in comments (the site's `commentImages`): picked, pasted or dropped into the comment box,
// uploaded as a multipart request, and put in the text as Markdown at the cursor.
import { File as NodeFile } from 'node:buffer';
import { createEvent, fireEvent, screen, waitFor } from '@testing-library/preact';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Composer } from './Composer';
import type { StreamData } from './StreamContext';
import { createTestEnv, renderInStream, TEST_GRAPHQL_URL } from './testing/createTestEnv';
import { makeStreamData, TEST_VIEWER } from './testing/threadFixtures';
import { openAuthPopup } from './auth/openAuthPopup';

jest.mock('./auth/openAuthPopup', () => ({ openAuthPopup: jest.fn() }));

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const URL_OF = (n: number) => `http://parley.test/uploads/images/000000000000000${n}-20x10.webp`;

/** Answers each multipart upload with the next of `answers`; records what was sent. */
function answerUploads(...answers: Record<string, unknown>[]) {
  const sent: { operations: Record<string, unknown>; file: string }[] = [];
  server.use(
    http.post(TEST_GRAPHQL_URL, async ({ request }) => {
      if (!request.headers.get('content-type')?.startsWith('multipart/form-data')) return;
      const form = await request.formData();
      const file = form.get('0') as File;
      sent.push({
        operations: JSON.parse(String(form.get('operations'))) as Record<string, unknown>,
        file: `${file.name}:${await file.text()}`,
      });
      return HttpResponse.json(answers[sent.length - 1] ?? answers.at(-1));
    }),
  );
  return sent;
}
const uploaded = (n: number) => ({ data: { uploadCommentImage: { image: { url: URL_OF(n) } } } });

function render(data: StreamData) {
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data);
  return env;
}
const allowed = (viewer = TEST_VIEWER) =>
  makeStreamData([], { viewer, settings: { commentImages: true } });
const box = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Write a comment' });
// Node's File: under jsdom, fetch and FormData are Node's and take only their own File.
const image = (name: string) => new NodeFile(['GIF89a'], name, { type: 'image/gif' });
/** What a paste or a drop carries: files, and maybe text. */
const clipboard = (files: unknown[], text = '') => ({ files, getData: () => text });

test('offers no Image button while the site does not allow images', () => {
  render(makeStreamData([], { viewer: TEST_VIEWER }));
  expect(screen.queryByRole('button', { name: 'Image' })).toBeNull();
});

test('a pasted image is uploaded for the story and its Markdown goes in at the cursor', async () => {
  const sent = answerUploads(uploaded(1));
  render(allowed());
  fireEvent.input(box(), { target: { value: 'Before after' } });
  box().setSelectionRange(6, 6);
  fireEvent.paste(box(), { clipboardData: clipboard([image('cat.gif')]) });
  expect(await screen.findByText('Uploading the image…')).toBeTruthy();
  await waitFor(() => expect(box().value).toBe(`Before\n![](${URL_OF(1)})\n after`));
  expect(screen.queryByText('Uploading the image…')).toBeNull();
  expect(sent).toEqual([
    {
      operations: expect.objectContaining({
        operationName: 'UploadCommentImage',
        variables: { input: { storyId: 's1', file: null } },
      }),
      file: 'cat.gif:GIF89a',
    },
  ]);
});

test('dropped images go in one after the other; a refused one says why and the text stays', async () => {
  answerUploads(uploaded(1), {
    data: null,
    errors: [{ message: 'no', extensions: { code: 'UPLOAD_TOO_LARGE' } }],
  });
  render(allowed());
  fireEvent.input(box(), { target: { value: 'Look' } });
  fireEvent.drop(box(), { dataTransfer: clipboard([image('a.gif'), image('b.gif')]) });
  expect((await screen.findByRole('alert')).textContent).toMatch(/too large/i);
  expect(box().value).toBe(`Look\n![](${URL_OF(1)})\n`);
});

test('a paste with text (an office program adds a picture of it) is left to the box', () => {
  answerUploads(uploaded(1));
  render(allowed());
  const event = createEvent.paste(box(), {
    clipboardData: clipboard([image('cells.png')], 'Q3 revenue'),
  });
  fireEvent(box(), event);
  expect(event.defaultPrevented).toBe(false);
  expect(screen.queryByText('Uploading the image…')).toBeNull();
});

test('a signed-out reader is asked to sign in instead', () => {
  render(allowed(null as never));
  fireEvent.click(screen.getByRole('button', { name: 'Image' }));
  expect(openAuthPopup).toHaveBeenCalled();
});
