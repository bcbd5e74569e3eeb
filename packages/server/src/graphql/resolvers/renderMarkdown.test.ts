import { testDialects } from '../../db/testDatabases';
import { SITE_ORIGIN, useApi } from '../testing/useApi';

// The composer's preview: the server's own renderer, so what a reader previews is what posts.
const RENDER = `query ($body: String!) { renderMarkdown(body: $body) }`;
const STORY = `query ($url: String!) { story(url: $url) { id } }`;
const POST = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { body } } }`;

describe.each(testDialects())('renderMarkdown on %s', (dialect) => {
  const api = useApi(dialect);

  it('renders Markdown to sanitized HTML for a signed-out reader', async () => {
    await api.install();
    const { renderMarkdown } = await api.ok(RENDER, {
      body: '**bold** <script>alert(1)</script> [x](javascript:alert(1))',
    });
    expect(renderMarkdown).toBe(
      '<p><strong>bold</strong> &lt;script&gt;alert(1)&lt;/script&gt; [x](javascript:alert(1))</p>',
    );
  });

  it('gives exactly the HTML the posted comment gets', async () => {
    await api.install();
    const { token } = await api.signUp('writer');
    const { story } = await api.ok(STORY, { url: `${SITE_ORIGIN}/article` });
    const body = '  > quoted\n\n_it_ and `code` https://x.example  ';
    const preview = await api.ok(RENDER, { body });
    const posted = await api.ok(POST, { input: { storyId: story.id, body } }, token);
    expect(preview.renderMarkdown).toBe(posted.createComment.comment.body);
    expect(preview.renderMarkdown).toContain('<blockquote>');
  });

  it('refuses a body longer than maxCommentLength with COMMENT_TOO_LONG', async () => {
    await api.install();
    await api.db
      .updateTable('organization')
      .set({ settings: JSON.stringify({ maxCommentLength: 5 }) })
      .execute();
    // Five code points (an emoji counts once), after trimming: allowed.
    expect((await api.ok(RENDER, { body: ' ab😀de ' })).renderMarkdown).toBe('<p>ab😀de</p>');
    const answer = await api.request(RENDER, { body: 'abcdef' });
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'COMMENT_TOO_LONG',
      field: 'body',
    });
  });
});
