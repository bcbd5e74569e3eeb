import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { StreamData } from '../StreamContext';
import { createTestEnv, renderInStream } from '../testing/createTestEnv';
import { makeStreamData, TEST_VIEWER } from '../testing/threadFixtures';
import type { StoryData } from '../StreamContext';
import { Panel } from './ConfigureTab';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function streamData(story: Partial<StoryData> = {}): StreamData {
  return makeStreamData([], {
    viewer: { ...TEST_VIEWER, id: 'm1', username: 'mod', email: null, role: 'MODERATOR' },
    settings: { premod: 'LINKS' },
    story: {
      settings: { effectivePremod: 'LINKS', liveUpdates: true, premod: null },
      ...story,
    },
  });
}

function answerUpdateStory(answer: { code?: string; status?: string } = {}) {
  const calls: Record<string, unknown>[] = [];
  server.use(
    graphql.mutation('UpdateStory', ({ variables }) => {
      calls.push(variables);
      if (answer.code) {
        return HttpResponse.json({
          errors: [{ message: 'x', extensions: { code: answer.code } }],
          data: null,
        });
      }
      const story = {
        id: 's1',
        status: answer.status ?? 'OPEN',
        settings: { premod: null, liveUpdates: true, effectivePremod: 'LINKS' },
      };
      return HttpResponse.json({ data: { updateStory: { story } } });
    }),
  );
  return calls;
}

test('closes the story and reloads the stream', async () => {
  const calls = answerUpdateStory({ status: 'CLOSED' });
  const data = streamData();
  const env = createTestEnv();
  renderInStream(<Panel />, env, data);
  expect(screen.getByText('Comments are open.')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Close comments' }));
  expect(await screen.findByText('Comments closed.')).toBeTruthy();
  expect(calls).toEqual([{ input: { storyId: 's1', status: 'CLOSED' } }]);
  expect(data.refetch).toHaveBeenCalledTimes(1);
});

test('opens a closed story; a refusal shows by its code and reloads nothing', async () => {
  const calls = answerUpdateStory({ code: 'FORBIDDEN' });
  const data = streamData({ status: 'CLOSED' });
  const env = createTestEnv();
  renderInStream(<Panel />, env, data);
  fireEvent.click(screen.getByRole('button', { name: 'Open comments' }));
  expect((await screen.findByRole('alert')).textContent).toBe('You are not allowed to do that.');
  expect(calls).toEqual([{ input: { storyId: 's1', status: 'OPEN' } }]);
  expect(data.refetch).not.toHaveBeenCalled();
});

test('overrides pre-moderation and live updates, or returns to the site default', async () => {
  let calls = answerUpdateStory();
  const data = streamData();
  const env = createTestEnv();
  renderInStream(<Panel />, env, data);
  const form = screen.getByRole('region', { name: 'Story settings' });
  const select = within(form).getByLabelText('Pre-moderation') as HTMLSelectElement;
  expect(select.value).toBe('');
  expect(select.options[0]!.textContent).toBe('Site default (Comments with links)');
  expect(within(form).getByText('In effect: Comments with links')).toBeTruthy();
  fireEvent.change(select, { target: { value: 'ALL' } });
  fireEvent.click(within(form).getByLabelText('Live updates'));
  fireEvent.click(within(form).getByRole('button', { name: 'Save story settings' }));
  expect(await within(form).findByText('Story settings saved.')).toBeTruthy();
  expect(calls).toEqual([{ input: { storyId: 's1', premod: 'ALL', liveUpdates: false } }]);
  expect(data.refetch).toHaveBeenCalledTimes(1);

  // Back to the organization's mode: an explicit null; live updates untouched, so not sent.
  calls = answerUpdateStory();
  fireEvent.change(select, { target: { value: '' } });
  fireEvent.click(within(form).getByLabelText('Live updates'));
  fireEvent.click(within(form).getByRole('button', { name: 'Save story settings' }));
  await waitFor(() => expect(calls).toHaveLength(1));
  expect(calls).toEqual([{ input: { storyId: 's1', premod: null } }]);
  await waitFor(() => expect(data.refetch).toHaveBeenCalledTimes(2));
});
