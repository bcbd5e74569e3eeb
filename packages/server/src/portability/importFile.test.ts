import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { formatReport, openImportFile } from './importFile';
import { newReport } from './importShared';

describe('importFile', () => {
  it('prints the report with the file’s control characters escaped', () => {
    const report = newReport('disqus', 'site-1', false);
    report.comments.imported = 1234;
    report.seconds = 2;
    report.skipped.push({
      what: 'comment',
      id: '\u001b[31mred',
      line: 9,
      reason: 'its date "\u0007" is not a date',
    });
    const text = formatReport(report);
    expect(text).toContain('    comment \\u001b[31mred (line 9): its date "\\u0007" is not a date');
    expect(text).toContain('1,234 comments in 2.0 s (617 comments/s)');
    expect([...text].filter((c) => c < ' ' && c !== '\n')).toEqual([]);
  });

  it('reads a file as it is, or unzipped when it is gzip whatever its name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-import-'));
    try {
      writeFileSync(join(dir, 'plain.xml'), '<a/>');
      writeFileSync(join(dir, 'zipped.xml'), gzipSync('<b/>'));
      const read = async (name: string) => {
        let text = '';
        for await (const chunk of openImportFile(join(dir, name))) text += String(chunk);
        return text;
      };
      expect(await read('plain.xml')).toBe('<a/>');
      expect(await read('zipped.xml')).toBe('<b/>');
      expect(() => openImportFile(join(dir, 'missing.xml'))).toThrow(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
