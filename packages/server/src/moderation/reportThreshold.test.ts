import { DEFAULT_SETTINGS } from '../defaults';
import type { CommentStatus } from './reportThreshold';
import { statusAfterReport } from './reportThreshold';

const THRESHOLD = DEFAULT_SETTINGS.reportThreshold;

describe('statusAfterReport', () => {
  it('keeps a published comment visible below the threshold', () => {
    expect(statusAfterReport('NONE', THRESHOLD - 1, THRESHOLD)).toBe('NONE');
  });

  it('withholds a published comment when reports reach the threshold', () => {
    expect(statusAfterReport('NONE', THRESHOLD, THRESHOLD)).toBe('SYSTEM_WITHHELD');
    expect(statusAfterReport('NONE', THRESHOLD + 5, THRESHOLD)).toBe('SYSTEM_WITHHELD');
  });

  it('leaves a moderator-approved comment alone however many reports it gets', () => {
    expect(statusAfterReport('APPROVED', THRESHOLD * 10, THRESHOLD)).toBe('APPROVED');
  });

  it.each<CommentStatus>(['PREMOD', 'REJECTED', 'SYSTEM_WITHHELD'])(
    'does not change a %s comment',
    (status) => {
      expect(statusAfterReport(status, THRESHOLD, THRESHOLD)).toBe(status);
    },
  );

  it('never withholds when the threshold is 0 (turned off)', () => {
    expect(statusAfterReport('NONE', 100, 0)).toBe('NONE');
  });

  it('honours a threshold of 1', () => {
    expect(statusAfterReport('NONE', 1, 1)).toBe('SYSTEM_WITHHELD');
  });
});
