import { AVATAR_TYPES, COMMENT_IMAGE_MAX_BYTES, COMMENT_IMAGE_MAX_WIDTH } from '@parley/contract';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { RefObject } from 'preact';
import type { CodedError } from './describeError';
import { withMessages } from './messages';
import type { MessagesPart } from './messages';
import { messages as en } from './messages/en/accountErrors';
import type { StreamEnv } from './StreamContext';

// Images in comments (the site's `commentImages`): a chunk of its own, fetched the first time a
// reader adds an image, so the thread's first render does not carry it.

/** The upload's refusals (UPLOAD_TOO_LARGE, UPLOAD_TYPE_NOT_ALLOWED) travel with this chunk. */
export const messages: MessagesPart<keyof typeof en> = en;

/** Uploads one image for a comment on the story; the transport sends the File as multipart. */
export const UPLOAD_COMMENT_IMAGE = graphql(
  `mutation UploadCommentImage($input:UploadCommentImageInput!){uploadCommentImage(input:$input){image{url}}}`,
);

/** Where the images go and whom to tell. */
export interface ImageTarget {
  env: StreamEnv;
  storyId: string;
  /** The comment box: each image's Markdown goes in at its cursor. */
  box: RefObject<HTMLTextAreaElement | null>;
  /** The box's new text (kept as the draft). */
  onText(text: string): void;
  /** A coded refusal (UPLOAD_TOO_LARGE, RATE_LIMITED…), shown under the box. */
  onError(error: CodedError): void;
  /** An upload started (1) or ended (-1). */
  onBusy(change: 1 | -1): void;
}

/**
 * Uploads `files` (pasted or dropped) — or, without them, the ones the reader picks — one by one,
 * and puts `![](url)` for each at the box's cursor. A refused file says why and stops there;
 * those before it stay in.
 */
export async function addImages(target: ImageTarget, files?: File[]): Promise<void> {
  const chosen = files ?? (await pick(target.env.window.document));
  await withMessages(target.env, messages);
  for (const file of chosen) {
    target.onBusy(1);
    try {
      const result = await target.env.transport.client
        .mutation(UPLOAD_COMMENT_IMAGE, {
          input: { storyId: target.storyId, file: await shrink(file) },
        })
        .toPromise();
      const url = result.data?.uploadCommentImage.image.url;
      if (url !== undefined) insert(target, `![](${url})`);
      else {
        const { code, extensions } = result.error
          ? toTransportError(result.error)
          : { code: 'INTERNAL' as const, extensions: {} };
        return target.onError({ code, extensions });
      }
    } finally {
      target.onBusy(-1);
    }
  }
}

/** The files the reader picks in the browser's file dialog (none if they cancel). */
function pick(document: Document): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = AVATAR_TYPES.join(',');
    input.multiple = true;
    input.onchange = () => resolve([...(input.files ?? [])]);
    input.oncancel = () => resolve([]);
    input.click();
  });
}

/**
 * A photo over the upload limit, scaled in the browser to the width the server keeps and sent as
 * WebP (upright: createImageBitmap applies its orientation). Anything else, or a browser that
 * cannot, goes as it is: the server is the judge.
 */
async function shrink(file: File): Promise<File> {
  if (file.size <= COMMENT_IMAGE_MAX_BYTES || typeof createImageBitmap !== 'function') return file;
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, COMMENT_IMAGE_MAX_WIDTH / bitmap.width);
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const encode = (type: string, quality: number) =>
      new Promise<Blob | null>((done) => canvas.toBlob(done, type, quality));
    // A browser that cannot write WebP answers PNG, often larger than the photo: JPEG then.
    let blob = await encode('image/webp', 0.9);
    if (blob?.type !== 'image/webp') blob = await encode('image/jpeg', 0.85);
    return blob ? new File([blob], 'image', { type: blob.type }) : file;
  } catch {
    return file;
  }
}

/** Puts `markdown` on a line of its own at the box's cursor, and the cursor after it. */
function insert({ box, onText }: ImageTarget, markdown: string): void {
  const el = box.current;
  if (!el) return;
  const at = el.selectionEnd;
  const before = el.value.slice(0, at);
  const after = el.value.slice(at);
  const line = `${before && !before.endsWith('\n') ? '\n' : ''}${markdown}\n`;
  el.value = before + line + after;
  el.setSelectionRange(at + line.length, at + line.length);
  onText(el.value);
}
