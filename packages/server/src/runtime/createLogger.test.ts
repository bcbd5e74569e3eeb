import { Writable } from 'node:stream';
import { createLogger, createProcessLogger } from './createLogger';

function capture(): { destination: Writable; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { destination, lines };
}

describe('createLogger', () => {
  it('writes JSON lines at or above the level', () => {
    const { destination, lines } = capture();
    const logger = createLogger({ level: 'warn', destination });
    logger.info('hidden');
    logger.warn({ storyId: 's1' }, 'shown');
    expect(lines).toEqual([expect.objectContaining({ msg: 'shown', storyId: 's1', level: 40 })]);
  });

  it('writes nothing when silent', () => {
    const { destination, lines } = capture();
    createLogger({ level: 'silent', destination }).fatal('nothing');
    expect(lines).toEqual([]);
  });

  it('censors tokens, passwords and Authorization headers', () => {
    const { destination, lines } = capture();
    createLogger({ level: 'info', destination }).info(
      { req: { headers: { authorization: 'Bearer xyz' } }, input: { password: 'pw' }, token: 't' },
      'request',
    );
    const line = JSON.stringify(lines[0]);
    expect(line).not.toMatch(/xyz|"pw"|"t"/);
    expect(line).toContain('[redacted]');
  });
});

describe('createProcessLogger', () => {
  function text(): { destination: Writable; written: () => string } {
    let written = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    return { destination, written: () => written };
  }

  it('writes pretty lines for people, still censoring secrets', async () => {
    const { destination, written } = text();
    const logger = await createProcessLogger({
      level: 'info',
      format: 'pretty',
      terminal: false,
      prettyDestination: destination,
    });
    logger.info({ token: 'secret-token', storyId: 's1' }, 'listening');
    logger.debug('below the level');
    const output = written();
    expect(output).toMatch(
      /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: listening\n {4}token: "\[redacted\]"\n {4}storyId: "s1"\n$/,
    );
    expect(output).not.toContain('secret-token');
    expect(output).not.toContain('{');
  });

  it('is pretty at a terminal and JSON elsewhere unless LOG_FORMAT says otherwise', async () => {
    const { destination, written } = text();
    const atTerminal = await createProcessLogger({
      level: 'info',
      format: undefined,
      terminal: true,
      prettyDestination: destination,
    });
    atTerminal.warn('coloured');
    // ANSI colours around the level: a terminal shows them.
    const escape = String.fromCharCode(27);
    expect(written()).toContain(`${escape}[33mWARN${escape}[39m: ${escape}[36mcoloured`);

    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      (await createProcessLogger({ level: 'info', format: undefined, terminal: false })).info('a');
      (await createProcessLogger({ level: 'info', format: 'json', terminal: true })).info('b');
      const lines = write.mock.calls.map(([chunk]) => String(chunk));
      expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['a', 'b']);
    } finally {
      write.mockRestore();
    }
  });
});
