import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { TEST_MODERATOR, createTestConsoleEnv, renderInConsole } from '../../testing/renderConsole';
import { AuditLogPage, auditCsv } from './AuditLogPage';
import type { AuditEntry } from './AuditLogPage';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ENTRIES: AuditEntry[] = [
  {
    id: 'a2',
    createdAt: '2026-11-26T10:00:00.000Z',
    actorName: 'root',
    action: 'USER_BAN',
    targetType: 'user',
    targetLabel: 'troll',
    ip: '203.0.113.9',
    actor: { id: 'u-root' },
    changes: [
      { field: 'banned', before: 'false', after: 'true' },
      { field: 'message', before: null, after: '"Spam, again"' },
    ],
  },
  {
    id: 'a1',
    createdAt: '2026-11-25T10:00:00.000Z',
    actorName: 'parley',
    action: 'SETTINGS_UPDATE',
    targetType: 'settings',
    targetLabel: 'News',
    ip: null,
    actor: null,
    changes: [{ field: 'smtpPassword', before: null, after: '"[redacted]"' }],
  },
];

/** Answers every page with the entries, recording the variables of each request. */
function answerLog(calls: Record<string, unknown>[]) {
  server.use(
    graphql.query('ConsoleAuditLog', ({ variables }) => {
      calls.push(variables);
      return HttpResponse.json({
        data: {
          auditLog: {
            edges: ENTRIES.map((node) => ({ cursor: node.id, node })),
            pageInfo: { hasNextPage: false, endCursor: 'a1' },
          },
        },
      });
    }),
  );
}

async function renderLog() {
  const env = await createTestConsoleEnv({ token: 't' });
  return renderInConsole(<AuditLogPage />, env, {
    path: '/admin/audit',
    viewer: { ...TEST_MODERATOR, role: 'ADMIN' },
  });
}

test('shows who did what, when, to whom, each change before → after', async () => {
  answerLog([]);
  await renderLog();
  const table = await screen.findByRole('table', { name: 'Audit log' });
  await within(table).findByText('Banned');
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows).toHaveLength(2);
  expect(rows[0]!.textContent).toContain('root203.0.113.9');
  expect(rows[0]!.textContent).toContain('banned: false → true');
  expect(rows[0]!.textContent).toContain('message: — → Spam, again');
  expect(rows[1]!.textContent).toContain('smtpPassword: — → [redacted]');
  // The command line has no account to filter by.
  expect(within(rows[1]!).queryByRole('button')).toBeNull();
});

test('filters by action, by a person, and by days', async () => {
  const calls: Record<string, unknown>[] = [];
  answerLog(calls);
  await renderLog();
  await screen.findByText('Banned');
  fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'USER_BAN' } });
  await waitFor(() => expect(calls.at(-1)).toMatchObject({ action: 'USER_BAN' }));
  fireEvent.click(await screen.findByRole('button', { name: 'root' }));
  await waitFor(() => expect(calls.at(-1)).toMatchObject({ actorId: 'u-root' }));
  expect(screen.getByText('By root')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
  fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-30' } });
  await waitFor(() =>
    expect(calls.at(-1)).toMatchObject({
      since: new Date(2026, 10, 1).toISOString(),
      until: new Date(2026, 11, 1).toISOString(),
    }),
  );
  fireEvent.click(screen.getByRole('button', { name: 'Everyone' }));
  await waitFor(() => expect(calls.at(-1)).toMatchObject({ actorId: null }));
});

test('exports what matches as CSV, one line per change, formulas defused', () => {
  const csv = auditCsv([
    ...ENTRIES,
    { ...ENTRIES[1]!, id: 'a0', targetLabel: '=HYPERLINK("x")', changes: [] },
  ]);
  expect(csv.split('\r\n')).toEqual([
    'time,actor,action,target type,target,field,before,after,ip',
    '2026-11-26T10:00:00.000Z,root,USER_BAN,user,troll,banned,false,true,203.0.113.9',
    '2026-11-26T10:00:00.000Z,root,USER_BAN,user,troll,message,,"""Spam, again""",203.0.113.9',
    '2026-11-25T10:00:00.000Z,parley,SETTINGS_UPDATE,settings,News,smtpPassword,,"""[redacted]""",',
    `2026-11-25T10:00:00.000Z,parley,SETTINGS_UPDATE,settings,"'=HYPERLINK(""x"")",,,,`,
    '',
  ]);
});

test('Export CSV fetches every page matching the filters and says how many', async () => {
  const calls: Record<string, unknown>[] = [];
  answerLog(calls);
  await renderLog();
  await screen.findByText('Banned');
  const created: string[] = [];
  const original = URL.createObjectURL;
  URL.createObjectURL = (blob: Blob) => {
    created.push(blob.type);
    return 'blob:parley-test';
  };
  URL.revokeObjectURL = () => undefined;
  try {
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect((await screen.findByRole('status')).textContent).toBe('Exported 2 entries.');
  } finally {
    URL.createObjectURL = original;
  }
  expect(created).toEqual(['text/csv']);
  expect(calls.at(-1)).toMatchObject({ first: 100, after: null });
});
