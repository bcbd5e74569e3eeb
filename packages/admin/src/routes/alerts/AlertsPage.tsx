import { useEffect, useId, useRef, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { errorCodeOf } from '../../errorCodeOf';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import { Loading } from '../../Loading';

/** The viewer's alert per site (OFF included), and whether notification emails are on at all. */
export const MODERATION_ALERTS_QUERY = graphql(`
  query ConsoleModerationAlerts {
    viewer {
      id
      moderationAlerts { frequency site { id name url } }
    }
  }
`);

/**
 * Sets how one site's comments are emailed to the viewer. Its answer's `ModerationAlert` makes
 * the transport's cache fetch the page's query again.
 */
export const SET_MODERATION_ALERT_MUTATION = graphql(`
  mutation ConsoleSetModerationAlert($input: SetModerationAlertInput!) {
    setModerationAlert(input: $input) { alert { frequency site { id name url } } }
  }
`);

type ModerationAlert = NonNullable<
  NonNullable<ResultOf<typeof MODERATION_ALERTS_QUERY>['viewer']>['moderationAlerts']
>[number];

/** How often a site's comments are emailed (`ModerationAlertFrequency`). */
type Frequency = ModerationAlert['frequency'];

/** The catalog key of each frequency's words, as the selects offer them, in their order. */
export const FREQUENCY_TEXT: Record<Frequency, ConsoleMessageKey> = {
  OFF: 'console.alerts.frequency.OFF',
  EACH: 'console.alerts.frequency.EACH',
  HOURLY: 'console.alerts.frequency.HOURLY',
  DAILY: 'console.alerts.frequency.DAILY',
};

/**
 * `/admin/alerts`: how each site's comments entering the Pending or Reported queue are emailed to
 * the signed-in moderator. A choice is saved as soon as it is made.
 */
export function AlertsPage() {
  const [{ data, error }] = useQuery({
    query: MODERATION_ALERTS_QUERY,
    requestPolicy: 'cache-and-network',
  });
  const viewer = data?.viewer;
  const t = useT();
  const errorText = useErrorText();
  if (!viewer) {
    return (
      <main className="page narrow">
        <h1>{t('console.alerts.title')}</h1>
        {error || data ? <p role="alert">{errorText(errorCodeOf(error))}</p> : <Loading />}
      </main>
    );
  }
  const alerts = viewer.moderationAlerts;
  return (
    <main className="page narrow alerts-page">
      <h1>{t('console.alerts.title')}</h1>
      <p>{t('console.alerts.intro')}</p>
      {alerts === null ? (
        <p>{t('console.alerts.onlyStaff')}</p>
      ) : alerts.length === 0 ? (
        <p>{t('console.alerts.noSites')}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('console.alerts.col.site')}</th>
                <th scope="col">{t('console.alerts.col.alerts')}</th>
              </tr>
            </thead>
            <tbody>
              {alerts.map((alert) => (
                <AlertRow key={alert.site.id} alert={alert} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}

/** One site: its name and the frequency select, saved on change. */
function AlertRow({ alert }: { alert: ModerationAlert }) {
  const id = useId();
  const [{ fetching: saving }, save] = useMutation(SET_MODERATION_ALERT_MUTATION);
  // The choice being saved, then the one saved (the query is read again after the answer).
  const [chosen, setChosen] = useState<Frequency | null>(null);
  const [outcome, setOutcome] = useState<{ saved: true } | { saved: false; text: string } | null>(
    null,
  );
  const select = useRef<HTMLSelectElement>(null);
  // A focused control that is disabled loses the focus: it comes back once the save is done.
  const refocus = useRef(false);
  const t = useT();
  const errorText = useErrorText();
  useEffect(() => {
    const node = select.current;
    if (saving || !refocus.current || !node) return;
    refocus.current = false;
    const active = node.ownerDocument.activeElement;
    if (active === null || active === node.ownerDocument.body) node.focus();
  }, [saving]);

  async function change(frequency: Frequency) {
    setChosen(frequency);
    setOutcome(null);
    refocus.current = select.current?.ownerDocument.activeElement === select.current;
    const result = await save({ input: { siteId: alert.site.id, frequency } });
    const saved = result.data?.setModerationAlert.alert.frequency;
    if (saved === undefined) {
      setChosen(null);
      setOutcome({ saved: false, text: errorText(errorCodeOf(result.error)) });
    } else {
      setChosen(saved);
      setOutcome({ saved: true });
    }
  }

  const { name } = alert.site;
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>
        <label htmlFor={id} className="visually-hidden">
          {t('console.alerts.label', { site: name })}
        </label>
        <select
          ref={select}
          id={id}
          value={chosen ?? alert.frequency}
          disabled={saving}
          aria-describedby={`${id}-outcome`}
          onChange={(event) => void change(event.target.value as Frequency)}
        >
          {(Object.keys(FREQUENCY_TEXT) as Frequency[]).map((value) => (
            <option key={value} value={value}>
              {t(FREQUENCY_TEXT[value])}
            </option>
          ))}
        </select>{' '}
        <span id={`${id}-outcome`}>
          <span role="status" className={outcome?.saved ? 'success' : undefined}>
            {saving ? t('console.alerts.saving') : outcome?.saved ? t('console.alerts.saved') : ''}
          </span>
          {outcome?.saved === false && <span role="alert">{outcome.text}</span>}
        </span>
      </td>
    </tr>
  );
}
