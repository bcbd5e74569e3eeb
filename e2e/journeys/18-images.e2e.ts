import sharp from 'sharp';
import {
  journey,
  screenshot,
  signUpThroughPopup,
  streamFrame,
  switchOnInGeneral,
  useHarness,
} from '../harness';

// Journey 18: the admin allows images in comments; a reader adds a photo with the composer's
// Image button, sees it in the preview, posts it, and another browser loads it from Parley —
// scaled to 1600 px wide, WebP, without the camera's metadata, cached for a year.

const h = useHarness();

describe('journey 18: images in comments', () => {
  it('uploads a photo from the composer, shows it in the thread, served as a small WebP', () =>
    journey('18-images', async (pages) => {
      const path = '/articles/images';
      pages.push(await switchOnInGeneral(h, 'Images in comments'));

      const reader = await h.open(path);
      pages.push(reader);
      const frame = streamFrame(reader.page);
      await signUpThroughPopup(reader.page, {
        email: 'painter@e2e.parley.test',
        username: 'painter',
        password: 'correct horse battery',
      });
      await frame.getByRole('button', { name: 'Sign out', exact: true }).waitFor();

      // A 2400 × 1200 JPEG carrying the camera's make.
      const photo = await sharp({
        create: { width: 2400, height: 1200, channels: 3, background: '#2a6fdb' },
      })
        .jpeg({ quality: 90 })
        .withExif({ IFD0: { Make: 'SpyCam' } })
        .toBuffer();
      const box = frame.getByRole('textbox', { name: 'Write a comment', exact: true });
      await box.fill('Sky today: ');
      const chooser = reader.page.waitForEvent('filechooser');
      await frame.getByRole('button', { name: 'Image', exact: true }).click();
      await (await chooser).setFiles({ name: 'sky.jpg', mimeType: 'image/jpeg', buffer: photo });
      // The upload's Markdown lands in the box (its value: a textarea's text does not change).
      let text = '';
      for (const until = Date.now() + 10_000; !text.includes('/uploads/images/');) {
        if (Date.now() > until) throw new Error(`No image in the box: ${text}`);
        await reader.page.waitForTimeout(100);
        text = await box.inputValue();
      }
      const url = /!\[\]\((http[^)]+)\)/.exec(text)?.[1];
      expect(url).toMatch(/\/uploads\/images\/[0-9a-f]{16}-1600x800\.webp$/);

      await frame.getByRole('button', { name: 'Preview', exact: true }).click();
      await frame.locator(`.parley-preview img[src="${url}"]`).waitFor();
      await frame.getByRole('button', { name: 'Preview', exact: true }).click();
      await frame.getByRole('button', { name: 'Post', exact: true }).click();
      const posted = frame.getByRole('article').filter({ has: frame.locator(`img[src="${url}"]`) });
      await posted.waitFor();

      // Another reader's browser loads the thread with the image from Parley.
      const other = await h.open(path);
      pages.push(other);
      const img = streamFrame(other.page).locator(`article img[src="${url}"]`);
      await img.waitFor();
      // Shown at once (its size is in the markup), loaded a moment later: decode() waits for the
      // bytes, and fails if they never come or are not an image.
      await expect(
        img.evaluate((el: HTMLImageElement) => el.decode().then(() => el.naturalWidth)),
      ).resolves.toBe(1600);
      await screenshot(other.page, '18-images');

      const response = await fetch(url!);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 1600 });
      expect(bytes.includes('SpyCam')).toBe(false);
    }));
});
