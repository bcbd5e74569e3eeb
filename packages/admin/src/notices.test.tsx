import { act, fireEvent, render, screen } from '@testing-library/react';
import { createNotices, NoticeList } from './notices';

test('notices show until dismissed, oldest first', () => {
  const notices = createNotices();
  const { container } = render(<NoticeList notices={notices} />);
  expect(container.innerHTML).toBe('');
  act(() => {
    notices.add('First.');
    notices.add('Second.');
  });
  const alert = screen.getByRole('alert');
  expect([...alert.querySelectorAll('li')].map((li) => li.firstChild?.textContent)).toEqual([
    'First.',
    'Second.',
  ]);
  fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss' })[0]!);
  expect(notices.list().map((notice) => notice.text)).toEqual(['Second.']);
  expect(screen.getAllByRole('listitem')).toHaveLength(1);
});
