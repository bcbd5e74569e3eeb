import { useState } from 'react';
import { useClient } from 'urql';
import type { OperationResult } from 'urql';
import type { Translate } from '@parley/contract';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf, VariablesOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { errorCodeOf } from '../../errorCodeOf';
import { useErrorText } from '../../errorText';
import { formatWhen } from '../../formatWhen';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import { CursorTable } from '../CursorTable';
import { FilterSelect } from '../FilterFields';
import { CursorPageInfoFields } from '../community/useCursorList';

/** What a row of the log shows. */
export const AuditEntryFields = graphql(`
  fragment AuditEntryFields on AuditEntry {
    id createdAt actorName action targetType targetLabel ip
    actor { id }
    changes { field before after }
  }
`);

/** One page of the audit log matching the filters. */
export const AUDIT_LOG_QUERY = graphql(
  `
    query ConsoleAuditLog(
      $action: AuditAction, $actorId: ID, $since: DateTime, $until: DateTime,
      $first: Int, $after: String
    ) {
      auditLog(
        action: $action, actorId: $actorId, since: $since, until: $until,
        first: $first, after: $after
      ) {
        edges { cursor node { ...AuditEntryFields } }
        pageInfo { ...CursorPageInfoFields }
      }
    }
  `,
  [AuditEntryFields, CursorPageInfoFields],
);

type AuditVariables = VariablesOf<typeof AUDIT_LOG_QUERY>;
type Filters = Omit<AuditVariables, 'first' | 'after'>;
/** An entry as the page reads it. */
export type AuditEntry = ResultOf<typeof AuditEntryFields>;
type AuditAction = NonNullable<AuditVariables['action']>;

/** Rows per page of the table. */
const PAGE_SIZE = 50;
/** The most entries an export holds (pages of the largest size the API gives). */
export const EXPORT_MAX_ENTRIES = 10_000;
const EXPORT_PAGE_SIZE = 100;

/** The catalog key of each action's name, as the log's reader names it (`t(key)`). */
export const ACTION_LABELS: Record<AuditAction, ConsoleMessageKey> = {
  SETTINGS_UPDATE: 'console.audit.actions.SETTINGS_UPDATE',
  SITE_CREATE: 'console.audit.actions.SITE_CREATE',
  SITE_UPDATE: 'console.audit.actions.SITE_UPDATE',
  SSO_KEY_ROTATE: 'console.audit.actions.SSO_KEY_ROTATE',
  SSO_KEY_REVOKE: 'console.audit.actions.SSO_KEY_REVOKE',
  API_TOKEN_CREATE: 'console.audit.actions.API_TOKEN_CREATE',
  API_TOKEN_REVOKE: 'console.audit.actions.API_TOKEN_REVOKE',
  WEBHOOK_CREATE: 'console.audit.actions.WEBHOOK_CREATE',
  WEBHOOK_UPDATE: 'console.audit.actions.WEBHOOK_UPDATE',
  WEBHOOK_DELETE: 'console.audit.actions.WEBHOOK_DELETE',
  WEBHOOK_SECRET_ROLL: 'console.audit.actions.WEBHOOK_SECRET_ROLL',
  STORY_UPDATE: 'console.audit.actions.STORY_UPDATE',
  USER_ROLE: 'console.audit.actions.USER_ROLE',
  USER_BAN: 'console.audit.actions.USER_BAN',
  USER_UNBAN: 'console.audit.actions.USER_UNBAN',
  USER_SUSPEND: 'console.audit.actions.USER_SUSPEND',
  USER_PREMOD: 'console.audit.actions.USER_PREMOD',
  USER_INVITE: 'console.audit.actions.USER_INVITE',
  USER_ERASE: 'console.audit.actions.USER_ERASE',
  PASSWORD_RESET: 'console.audit.actions.PASSWORD_RESET',
  TWO_FACTOR_ENABLE: 'console.audit.actions.TWO_FACTOR_ENABLE',
  TWO_FACTOR_DISABLE: 'console.audit.actions.TWO_FACTOR_DISABLE',
  TWO_FACTOR_RESET: 'console.audit.actions.TWO_FACTOR_RESET',
  RECOVERY_CODES_REGENERATE: 'console.audit.actions.RECOVERY_CODES_REGENERATE',
  SECRETS_FORGET: 'console.audit.actions.SECRETS_FORGET',
  SIGN_IN_PROVIDER_CREATE: 'console.audit.actions.SIGN_IN_PROVIDER_CREATE',
  SIGN_IN_PROVIDER_UPDATE: 'console.audit.actions.SIGN_IN_PROVIDER_UPDATE',
  SIGN_IN_PROVIDER_DELETE: 'console.audit.actions.SIGN_IN_PROVIDER_DELETE',
  IMPORT_START: 'console.audit.actions.IMPORT_START',
  EXPORT_DOWNLOAD: 'console.audit.actions.EXPORT_DOWNLOAD',
  IP_BAN: 'console.audit.actions.IP_BAN',
  IP_BAN_LIFT: 'console.audit.actions.IP_BAN_LIFT',
};

/** A change's JSON value as text: strings without quotes, nothing as "—". */
function shown(json: string | null | undefined, t: Translate<ConsoleMessageKey>): string {
  if (json === null || json === undefined) return '—';
  const value: unknown = JSON.parse(json);
  if (typeof value === 'string') return value === '' ? t('console.audit.value.empty') : value;
  if (Array.isArray(value))
    return value.length === 0 ? t('console.audit.value.none') : value.join(', ');
  return JSON.stringify(value);
}

/** The start of a `yyyy-mm-dd` day in the browser's time zone, as an ISO time; null for ''. */
function dayStart(day: string, offsetDays = 0): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (match === null) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  return new Date(y, m - 1, d + offsetDays).toISOString();
}

/** A field of a CSV row: quoted when it holds a comma, a quote or a line break. */
function csvField(text: string): string {
  // A leading =, +, -, @, tab or carriage return makes spreadsheets run a formula (OWASP's list):
  // such a value is quoted as text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The entries as CSV: one line per changed field (an entry without changes: one line). */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const head = [
    'time',
    'actor',
    'action',
    'target type',
    'target',
    'field',
    'before',
    'after',
    'ip',
  ];
  const lines = [head.join(',')];
  for (const e of entries) {
    const base = [e.createdAt, e.actorName, e.action, e.targetType, e.targetLabel];
    const changes = e.changes.length > 0 ? e.changes : [{ field: '', before: null, after: null }];
    for (const c of changes) {
      const cells = [...base, c.field, c.before ?? '', c.after ?? '', e.ip ?? ''];
      lines.push(cells.map(csvField).join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * `/admin/audit` (admins): what staff changed in policy and people — who, when, what, before →
 * after — filtered by action, person and dates, and exported as CSV.
 */
export function AuditLogPage() {
  const [action, setAction] = useState<AuditAction | ''>('');
  const [actor, setActor] = useState<{ id: string; name: string } | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const t = useT();
  const filters: Filters = {
    action: action === '' ? null : action,
    actorId: actor?.id ?? null,
    since: dayStart(from),
    // The whole of the last day.
    until: dayStart(to, 1),
  };
  return (
    <main className="page admin-page">
      <h1>{t('console.audit.title')}</h1>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect
          id="audit-action"
          label={t('console.audit.action')}
          all={t('console.audit.allActions')}
          options={(Object.keys(ACTION_LABELS) as AuditAction[]).map((value) => ({
            value,
            label: t(ACTION_LABELS[value]),
          }))}
          value={action}
          onChange={setAction}
        />
        <div>
          <label htmlFor="audit-from">{t('console.audit.from')}</label>
          <input
            id="audit-from"
            type="date"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="audit-to">{t('console.audit.to')}</label>
          <input id="audit-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </div>
        {actor && (
          <div>
            <span>{t('console.audit.by', { name: actor.name })}</span>{' '}
            <button type="button" className="link" onClick={() => setActor(null)}>
              {t('console.audit.everyone')}
            </button>
          </div>
        )}
      </form>
      <ExportButton filters={filters} />
      <CursorTable
        key={JSON.stringify(filters)}
        caption={t('console.audit.title')}
        head={
          <>
            <th scope="col">{t('console.audit.col.when')}</th>
            <th scope="col">{t('console.audit.col.who')}</th>
            <th scope="col">{t('console.audit.col.action')}</th>
            <th scope="col">{t('console.audit.col.on')}</th>
            <th scope="col">{t('console.audit.col.changes')}</th>
          </>
        }
        columns={5}
        query={AUDIT_LOG_QUERY}
        filters={filters}
        pageSize={PAGE_SIZE}
        connection={(data) => data.auditLog}
        empty={t('console.audit.empty')}
        row={({ actor: by, ...entry }) => (
          <tr key={entry.id}>
            <td>
              <time dateTime={entry.createdAt}>
                {formatWhen(entry.createdAt, { seconds: true })}
              </time>
            </td>
            <td>
              {by ? (
                <button
                  type="button"
                  className="link"
                  title={t('console.audit.onlyBy', { name: entry.actorName })}
                  onClick={() => setActor({ id: by.id, name: entry.actorName })}
                >
                  {entry.actorName}
                </button>
              ) : (
                entry.actorName
              )}
              {entry.ip && <div className="hint">{entry.ip}</div>}
            </td>
            <td>{t(ACTION_LABELS[entry.action])}</td>
            <td>
              {entry.targetLabel}
              <div className="hint">{entry.targetType}</div>
            </td>
            <td>
              {entry.changes.length > 0 && (
                <ul className="audit-changes">
                  {entry.changes.map((change) => (
                    <li key={change.field}>
                      <code>{change.field}</code>: {shown(change.before, t)} →{' '}
                      {shown(change.after, t)}
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        )}
      />
    </main>
  );
}

/** Exports the entries matching the filters as a CSV file (up to {@link EXPORT_MAX_ENTRIES}). */
function ExportButton({ filters }: { filters: Filters }) {
  const client = useClient();
  const { window: win } = useConsoleEnv();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ text: string; failed: boolean } | null>(null);
  const t = useT();
  const errorText = useErrorText();
  async function exportCsv() {
    setBusy(true);
    setStatus(null);
    const entries: AuditEntry[] = [];
    let after: string | null = null;
    do {
      const result: OperationResult<ResultOf<typeof AUDIT_LOG_QUERY>> = await client
        .query(
          AUDIT_LOG_QUERY,
          { ...filters, first: EXPORT_PAGE_SIZE, after },
          { requestPolicy: 'network-only' },
        )
        .toPromise();
      if (!result.data) {
        setBusy(false);
        setStatus({ text: errorText(errorCodeOf(result.error)), failed: true });
        return;
      }
      entries.push(...result.data.auditLog.edges.map((edge) => edge.node));
      const { hasNextPage, endCursor } = result.data.auditLog.pageInfo;
      after = hasNextPage ? endCursor : null;
    } while (after !== null && entries.length < EXPORT_MAX_ENTRIES);
    // The injected window's constructors: the page's own, or a test's.
    const { URL: Url, Blob: FileBlob, document: doc } = win as unknown as typeof globalThis;
    const href = Url.createObjectURL(new FileBlob([auditCsv(entries)], { type: 'text/csv' }));
    const link = doc.createElement('a');
    link.href = href;
    link.download = `parley-audit-log-${new Date().toISOString().slice(0, 10)}.csv`;
    doc.body.append(link);
    link.click();
    link.remove();
    // After the click has started the download.
    win.setTimeout(() => Url.revokeObjectURL(href), 60_000);
    setBusy(false);
    const text =
      after !== null
        ? t('console.audit.exportedCapped', { count: entries.length, max: EXPORT_MAX_ENTRIES })
        : t('console.audit.exported', { count: entries.length });
    setStatus({ text, failed: false });
  }
  return (
    <p>
      <button type="button" disabled={busy} onClick={() => void exportCsv()}>
        {busy ? t('console.audit.exporting') : t('console.audit.export')}
      </button>{' '}
      {status && <span role={status.failed ? 'alert' : 'status'}>{status.text}</span>}
    </p>
  );
}
