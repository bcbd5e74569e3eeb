import { graphql } from '@parley/transport/graphql';
import { useQuery } from '@urql/preact';
import { toTransportError } from '@parley/transport';
import { describeError } from './describeError';
import { useStreamEnv } from './StreamContext';

/** Asks the server for the HTML of a body: the stream never parses Markdown itself. */
export const RENDER_MARKDOWN = graphql(`
  query RenderMarkdown($body: String!) {
    renderMarkdown(body: $body)
  }
`);

/**
 * The box's text as it will look once posted. Loaded on demand (its own chunk): most readers
 * never preview.
 */
export function MarkdownPreview({ body }: { body: string }) {
  const env = useStreamEnv();
  const source = body.trim();
  const [{ data, error }] = useQuery({
    query: RENDER_MARKDOWN,
    variables: { body: source },
    pause: source === '',
  });
  if (source === '') return <p class="parley-preview">{env.t('composer.previewEmpty')}</p>;
  if (error) return <p role="alert">{describeError(env, toTransportError(error))}</p>;
  if (!data) return <p role="status">{env.t('composer.previewLoading')}</p>;
  // Sanitized by the server with the same renderer as posted comments (never our own parsing).
  return <div class="parley-preview" dangerouslySetInnerHTML={{ __html: data.renderMarkdown }} />;
}
