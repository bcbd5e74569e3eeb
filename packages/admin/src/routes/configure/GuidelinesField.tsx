import { GUIDELINES_MAX_LENGTH } from '@parley/contract';
import { useState } from 'react';
import { useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
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
  const t = useT();
  return (
    <div className="guidelines">
      <div className="toggle-row">
        <button type="button" aria-pressed={preview} onClick={() => setPreview(!preview)}>
          {preview
            ? t('console.configure.guidelines.edit')
            : t('console.configure.guidelines.preview')}
        </button>
      </div>
      {preview ? (
        <Preview body={form.values.guidelines} savedHtml={savedHtml} />
      ) : (
        <TextAreaField
          form={form}
          name="guidelines"
          label={t('console.configure.guidelines.label')}
          hint={t('console.configure.guidelines.hint')}
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
  const t = useT();
  const errorText = useErrorText();
  let content;
  if (body.trim() === '')
    content = <p className="hint">{t('console.configure.guidelines.empty')}</p>;
  else if (error && !data) {
    content = (
      <>
        <p role="alert">
          {t('console.configure.guidelines.previewFailed', {
            error: errorText(toTransportError(error).code),
          })}
        </p>
        {savedHtml !== '' && (
          <>
            <p className="hint">{t('console.configure.guidelines.saved')}</p>
            {/* Sanitized HTML from the server (Settings.guidelinesHtml). */}
            <div className="rendered" dangerouslySetInnerHTML={{ __html: savedHtml }} />
          </>
        )}
      </>
    );
  } else if (!data || fetching)
    content = <p className="hint">{t('console.configure.guidelines.rendering')}</p>;
  else {
    // The server's renderer sanitizes (as for every comment body); nothing here is raw input.
    content = (
      <div className="rendered" dangerouslySetInnerHTML={{ __html: data.renderMarkdown }} />
    );
  }
  return (
    <section aria-label={t('console.configure.guidelines.previewRegion')} className="preview">
      {content}
    </section>
  );
}
