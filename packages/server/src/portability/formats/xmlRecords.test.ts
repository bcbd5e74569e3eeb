import { xmlRecords } from './xmlRecords';

async function records(chunks: (string | Buffer)[], options?: { maxRecordChars?: number }) {
  const found = [];
  for await (const node of xmlRecords(
    (async function* () {
      yield* chunks;
    })(),
    (name, ancestors) => ancestors.length === 1 && name === 'post',
    options,
  )) {
    found.push(node);
  }
  return found;
}

describe('xmlRecords', () => {
  it('yields each record whole, by local names, with its line, across chunk boundaries', async () => {
    const xml = Buffer.from(
      '<root xmlns:d="urn:x">\n<post d:id="1"><d:msg><![CDATA[<p>é</p>]]></d:msg></post>\n<other/><post d:id="2">two</post></root>',
    );
    // Cut inside "é" (two bytes in UTF-8): the decoder keeps the half for the next chunk.
    const cut = xml.indexOf('é') + 1;
    const [first, second] = await records([xml.subarray(0, cut), xml.subarray(cut)]);
    expect(first).toMatchObject({
      name: 'post',
      attributes: { id: '1' },
      line: 2,
      children: [{ name: 'msg', text: '<p>é</p>' }],
    });
    expect(second).toMatchObject({ attributes: { id: '2' }, text: 'two', line: 3 });
  });

  it('stops at the first well-formedness error with its line and column', async () => {
    await expect(records(['<root>\n<post>\n</posts></root>'])).rejects.toThrow(
      /^The file is not well-formed XML at line 3, column \d+: /,
    );
  });

  it('stops at a record holding more text than it may', async () => {
    await expect(
      records(['<root>\n\n<post>', 'x'.repeat(60), '<a>', 'y'.repeat(50), '</a></post></root>'], {
        maxRecordChars: 100,
      }),
    ).rejects.toThrow(
      'The element at line 3 holds more than 100 characters of text: more than one record of this format can be.',
    );
  });
});
