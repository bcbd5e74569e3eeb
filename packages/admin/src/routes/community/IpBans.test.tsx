import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole } from '../../testing/renderConsole';
import { errorText } from '../../errorText';
import { EraseGuest, IpBanForm, IpBansSection } from './IpBans';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const BAN = {
  id: 'b1',
  range: '203.0.113.0/24',
  reason: 'Spam wave',
  expiresAt: '2026-12-01T10:00:00.000Z',
  createdAt: '2026-11-27T10:00:00.000Z',
  liftedAt: null as string | null,
  active: true,
  createdBy: { username: 'root' },
};

async function render(ui: React.ReactElement) {
  const env = await createTestConsoleEnv({ token: 't' });
  return renderInConsole(ui, env, { path: '/community' });
}

test('lists the bans, lifts one in force, and bans a network with a length and a reason', async () => {
  const bans = [BAN, { ...BAN, id: 'b0', range: '198.51.100.0/24', active: false, reason: '' }];
  const banned: unknown[] = [];
  const lifted: unknown[] = [];
  server.use(
    graphql.query('ConsoleIpBans', () =>
      HttpResponse.json({ data: { ipBans: { edges: bans.map((node) => ({ node })) } } }),
    ),
    graphql.mutation('LiftIpBan', ({ variables }) => {
      lifted.push(variables.input);
      bans[0] = { ...BAN, active: false, liftedAt: '2026-11-27T11:00:00.000Z' };
      return HttpResponse.json({
        data: { liftIpBan: { ipBan: { id: 'b1', active: false, liftedAt: bans[0].liftedAt } } },
      });
    }),
    graphql.mutation('BanIpRange', ({ variables }) => {
      banned.push(variables.input);
      return HttpResponse.json({
        data: {
          banIpRange: {
            ipBan: { id: 'b2', range: '192.0.2.0/24', expiresAt: BAN.expiresAt, active: true },
          },
        },
      });
    }),
  );
  await render(<IpBansSection />);
  const row = (await screen.findByRole('rowheader', { name: '203.0.113.0/24' })).closest('tr')!;
  expect(within(row).getByText('Spam wave')).toBeTruthy();
  // Only a ban in force can be lifted.
  const other = screen.getByRole('rowheader', { name: '198.51.100.0/24' }).closest('tr')!;
  expect(within(other).queryByRole('button')).toBeNull();
  fireEvent.click(within(row).getByRole('button', { name: 'Lift the ban of 203.0.113.0/24' }));
  await waitFor(() => expect(lifted).toEqual([{ id: 'b1' }]));

  fireEvent.change(screen.getByLabelText('Address or range'), {
    target: { value: '192.0.2.0/24' },
  });
  fireEvent.change(screen.getByLabelText('Ban for'), { target: { value: '168' } });
  fireEvent.change(screen.getByLabelText('Reason (optional, moderators only)'), {
    target: { value: ' bots ' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Ban network' }));
  expect(await screen.findByText(/^Banned 192\.0\.2\.0\/24 until /)).toBeTruthy();
  expect(banned).toEqual([{ range: '192.0.2.0/24', hours: 168, reason: 'bots' }]);
});

test('the form starts from the range the drawer suggests, and says why a range is refused', async () => {
  server.use(
    graphql.mutation('BanIpRange', () =>
      HttpResponse.json({
        data: null,
        errors: [{ message: 'too wide', extensions: { code: 'INVALID_INPUT', field: 'range' } }],
      }),
    ),
  );
  await render(<IpBanForm initialRange="2001:db8:1:2::/64" />);
  const range = screen.getByLabelText<HTMLInputElement>('Address or range');
  expect(range.value).toBe('2001:db8:1:2::/64');
  fireEvent.click(screen.getByRole('button', { name: 'Ban network' }));
  expect((await screen.findByRole('alert')).textContent).toBe(
    'Enter one address, or a range no wider than a /16 (IPv6: a /32), such as 203.0.113.0/24.',
  );
});

test('erases a guest once the admin confirms, and says why when refused', async () => {
  const erased: unknown[] = [];
  let refuse = true;
  server.use(
    graphql.mutation('EraseGuest', ({ variables }) => {
      erased.push(variables.input);
      return refuse
        ? HttpResponse.json({
            data: null,
            errors: [{ message: 'no', extensions: { code: 'FORBIDDEN' } }],
          })
        : HttpResponse.json({
            data: { eraseGuest: { user: { id: 'g1', username: 'deleted-g1' } } },
          });
    }),
  );
  const done = jest.fn();
  const confirm = jest.spyOn(window, 'confirm').mockReturnValueOnce(false);
  await render(<EraseGuest userId="g1" name="Sam Smith" onDone={done} />);
  const button = screen.getByRole('button', { name: 'Erase this guest' });
  fireEvent.click(button);
  expect(confirm).toHaveBeenCalledWith(expect.stringMatching(/^Erase Sam Smith\?/));
  expect(erased).toEqual([]);
  confirm.mockReturnValue(true);
  fireEvent.click(button);
  expect((await screen.findByRole('alert')).textContent).toBe(errorText('FORBIDDEN'));
  refuse = false;
  fireEvent.click(button);
  await waitFor(() => expect(done).toHaveBeenCalledTimes(1));
  expect(await screen.findByText('Erased.')).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Erase this guest' })).toBeNull();
  expect(erased).toEqual([{ userId: 'g1' }, { userId: 'g1' }]);
  confirm.mockRestore();
});
