import { graphql } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useRef, useState } from 'preact/hooks';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from '../panels/ActionStatus';
import { AVATAR_ACCEPT } from './profileDefaults';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';

/** Uploads an avatar: a `File` variable, which the transport sends as a multipart request. */
export const UPLOAD_AVATAR_MUTATION = graphql(`
  mutation UploadAvatar($file: File!) {
    uploadAvatar(file: $file) {
      user {
        id
        avatarUrl
      }
    }
  }
`);

/**
 * Avatar upload. The picker offers the accepted types only, but the server is the judge (it
 * sniffs the bytes): a refused file shows the server's code (UPLOAD_TYPE_NOT_ALLOWED,
 * UPLOAD_TOO_LARGE). The upload starts on submit, not on pick, so choosing is never an action.
 */
export function AvatarForm({ current }: { current: string | null }) {
  const { t } = useStreamEnv();
  const [avatarUrl, setAvatarUrl] = useState(current);
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [, upload] = useMutation(UPLOAD_AVATAR_MUTATION);
  const action = useAction();
  return (
    <PanelSection title={t('profile.avatar.title')}>
      {avatarUrl !== null && (
        <img class="parley-avatar-preview" src={avatarUrl} alt={t('profile.avatar.current')} />
      )}
      <form
        class="parley-form"
        onSubmit={async (event) => {
          event.preventDefault();
          if (!file) return;
          const data = await action.run(() => upload({ file }));
          if (data) {
            setAvatarUrl(data.uploadAvatar.user?.avatarUrl ?? null);
            setFile(null);
            if (input.current) input.current.value = '';
          }
        }}
      >
        <label>
          {t('profile.avatar.label')}
          <input
            ref={input}
            type="file"
            accept={AVATAR_ACCEPT}
            onChange={(event) => {
              setFile(event.currentTarget.files?.[0] ?? null);
              action.reset();
            }}
          />
        </label>
        <button type="submit" disabled={file === null || action.busy}>
          {t('profile.avatar.submit')}
        </button>
        <ActionStatus state={action.state} success={t('profile.avatar.saved')} />
      </form>
    </PanelSection>
  );
}
