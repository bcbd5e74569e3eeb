import { Writable } from 'node:stream';
import { createLogger } from './createLogger';

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
