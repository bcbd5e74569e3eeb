import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { useQuery } from 'urql';
import type { TypedDocumentNode } from 'urql';
import { toTransportError } from '@parley/transport';
import { useErrorText } from '../errorText';
import { useT } from '../i18n';
import { useCursorList } from './community/useCursorList';
import type { CursorList, CursorPageInfo } from './community/useCursorList';

/**
 * What the table needs of a page's connection: its nodes, and `pageInfo` as the query's
 * `CursorPageInfoFields` spread selects it.
 */
export interface Connection<Node> {
  edges: readonly { node: Node }[];
  pageInfo: CursorPageInfo;
}

/** The variables every paged query takes, beside its filters. */
export interface PageVariables {
  first?: number | null;
  after?: string | null;
}

/** What {@link CursorTable} needs to fetch and show its pages. */
export interface CursorTableProps<Data, Variables extends PageVariables, Node> {
  /** The table's caption (visually hidden), its accessible name. */
  caption: string;
  /** The header row's cells. */
  head: ReactNode;
  /** How many columns a row has, so a message row spans them all. */
  columns: number;
  /** The query of one page. */
  query: TypedDocumentNode<Data, Variables>;
  /** The query's variables other than `first` and `after`. */
  filters: Omit<Variables, keyof PageVariables>;
  /** Rows per page (`first`). */
  pageSize: number;
  /** The connection in a page's answer. */
  connection: (data: Data) => Connection<Node>;
  /** Shown when the first page has no rows, e.g. "No users match." */
  empty: string;
  /** One row of the table. */
  row: (node: Node) => ReactNode;
}

/**
 * A table whose rows come page by page with "Load more" (see {@link useCursorList}). Remount it
 * (a `key` of its filters) to start again from the first page.
 */
export function CursorTable<Data, Variables extends PageVariables, Node>(
  props: CursorTableProps<Data, Variables, Node>,
) {
  const list = useCursorList();
  const t = useT();
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">{props.caption}</caption>
          <thead>
            <tr>{props.head}</tr>
          </thead>
          {list.cursors.map((after, i) => (
            <CursorPage
              key={after ?? 'first'}
              {...props}
              after={after}
              report={i === list.cursors.length - 1 ? list.report : undefined}
            />
          ))}
        </table>
      </div>
      {list.hasMore && (
        <button type="button" className="load-more" onClick={list.loadMore}>
          {t('console.shell.loadMore')}
        </button>
      )}
    </>
  );
}

function CursorPage<Data, Variables extends PageVariables, Node>({
  columns,
  query,
  filters,
  pageSize,
  connection,
  empty,
  row,
  after,
  report,
}: CursorTableProps<Data, Variables, Node> & {
  after: string | null;
  report: CursorList['report'] | undefined;
}) {
  const [{ data, error, fetching }] = useQuery({
    query,
    // The filters are Variables without the page's two fields, which this adds back.
    variables: { ...filters, first: pageSize, after } as Variables,
  });
  const t = useT();
  const errorText = useErrorText();
  const page = data ? connection(data) : undefined;
  useEffect(() => {
    if (report && page) report(page.pageInfo);
  }, [report, page]);
  const message =
    error && !data
      ? errorText(toTransportError(error).code)
      : !data && fetching
        ? t('console.shell.loading')
        : page?.edges.length === 0 && after === null
          ? empty
          : null;
  return (
    <tbody>
      {message !== null && (
        <tr>
          <td colSpan={columns} role={error ? 'alert' : 'status'}>
            {message}
          </td>
        </tr>
      )}
      {page?.edges.map(({ node }) => row(node))}
    </tbody>
  );
}
