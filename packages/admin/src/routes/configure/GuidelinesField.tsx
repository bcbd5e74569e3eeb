import { GUIDELINES_MAX_LENGTH } from '@parley/contract';
import { useState } from 'react';
import { useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { errorText } from '../../errorText';
import { RENDER_MARKDOWN_QUERY } from './configureQueries';
import { TextAreaField } from './SettingsFields';
import type { GeneralValues } from './GeneralSettings';
import type { SettingsForm } from './useSettingsForm';

/**
 * The community guidelines: Markdown, with a preview rendered by the server exactly as the
 * widget will show it (the console carries no Markdown parser of its own).
 */
export function GuidelinesField({
  form,
  savedHtml,
}: {
  form: SettingsForm<GeneralValues>;
  /** The stored guidelines as HTML: shown when the draft cannot be previewed. */
  savedHtml: string;
}) {
  const [preview, setPreview] = useState(false);
  return (
    <div className="guidelines">
      <div className="toggle-row">
        <button type="button" aria-pressed={preview} onClick={() => setPreview(!preview)}>
          {preview ? 'Edit guidelines' : 'Preview guidelines'}
        </button>
      </div>
      {preview ? (
        <Preview body={form.values.guidelines} savedHtml={savedHtml} />
      ) : (
        <TextAreaField
          form={form}
          name="guidelines"
          label="Community guidelines"
          hint="Markdown. Shown above every comment stream."
          rows={8}
          maxLength={GUIDELINES_MAX_LENGTH}
        />
      )}
    </div>
  );
}

function Preview({ body, savedHtml }: { body: string; savedHtml: string }) {
  const [{ data, error, fetching }] = useQuery({
    query: RENDER_MARKDOWN_QUERY,
    variables: { body },
    pause: body.trim() === '',
  });
  let content;
  if (body.trim() === '') content = <p className="hint">No guidelines yet.</p>;
  else if (error && !data) {
    content = (
      <>
        <p role="alert">Cannot preview: {errorText(toTransportError(error).code)}</p>
        {savedHtml !== '' && (
          <>
            <p className="hint">The saved guidelines:</p>
            {/* Sanitized HTML from the server (Settings.guidelinesHtml). */}
            <div className="rendered" dangerouslySetInnerHTML={{ __html: savedHtml }} />
          </>
        )}
      </>
    );
  } else if (!data || fetching) content = <p className="hint">Rendering…</p>;
  else {
    // The server's renderer sanitizes (as for every comment body); nothing here is raw input.
    content = (
      <div className="rendered" dangerouslySetInnerHTML={{ __html: data.renderMarkdown }} />
    );
  }
  return (
    <section aria-label="Guidelines preview" className="preview">
      {content}
    </section>
  );
}
