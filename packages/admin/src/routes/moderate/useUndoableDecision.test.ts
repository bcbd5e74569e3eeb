import { leavesQueue } from './useUndoableDecision';

test('which decisions take a card out of the queue it is in', () => {
  expect(leavesQueue('PENDING', 'approveComment')).toBe(true);
  expect(leavesQueue('APPROVED', 'approveComment')).toBe(false);
  expect(leavesQueue('REPORTED', 'rejectComment')).toBe(true);
  expect(leavesQueue('REJECTED', 'rejectComment')).toBe(false);
  // Featuring approves; unfeaturing only drops the tag, so a reported card stays reported.
  expect(leavesQueue('PENDING', 'featureComment')).toBe(true);
  expect(leavesQueue('REPORTED', 'unfeatureComment')).toBe(false);
  expect(leavesQueue('APPROVED', 'unfeatureComment')).toBe(false);
});
