import { useState } from 'react';
import { formatWhen } from '../../formatWhen';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import type { Translate } from '@parley/contract';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { useErrorText, useFieldErrorText } from '../../errorText';
import { Field } from '../../Field';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import { SecretShownOnce } from './SecretShownOnce';

const WebhookDeliveryFields = graphql(`
  fragment WebhookDeliveryFields on WebhookDelivery {
    id event eventId payload state attempts nextAttemptAt responseStatus durationMs
    responseExcerpt error createdAt finishedAt
  }
`);

const WebhookFields = graphql(
  `
    fragment WebhookFields on Webhook {
      id url description events enabled format secret createdAt site { id name }
      deliveries(first: 20) { edges { node { ...WebhookDeliveryFields } } }
    }
  `,
  [WebhookDeliveryFields],
);

/** An endpoint as this page shows it; `secret` is set only in the answer that made or rolled it. */
export type ConsoleWebhook = ResultOf<typeof WebhookFields>;
type Delivery = ResultOf<typeof WebhookDeliveryFields>;
type WebhookEvent = ConsoleWebhook['events'][number];
type WebhookFormat = ConsoleWebhook['format'];

/** Each format as the select says it, and its short name (catalog keys). */
export const FORMAT_TEXT: Record<WebhookFormat, [ConsoleMessageKey, ConsoleMessageKey]> = {
  STANDARD: [
    'console.integrations.webhooks.format.STANDARD',
    'console.integrations.webhooks.formatShort.STANDARD',
  ],
  SLACK: [
    'console.integrations.webhooks.format.SLACK',
    'console.integrations.webhooks.formatShort.SLACK',
  ],
};

/** Every endpoint with its latest deliveries. */
export const WEBHOOKS_QUERY = graphql(
  `query ConsoleWebhooks { webhooks { ...WebhookFields } sites { id name } }`,
  [WebhookFields],
);

export const CREATE_WEBHOOK_MUTATION = graphql(
  `
    mutation ConsoleCreateWebhook($input: CreateWebhookInput!) {
      createWebhook(input: $input) { webhook { ...WebhookFields } }
    }
  `,
  [WebhookFields],
);

export const UPDATE_WEBHOOK_MUTATION = graphql(
  `
    mutation ConsoleUpdateWebhook($input: UpdateWebhookInput!) {
      updateWebhook(input: $input) { webhook { ...WebhookFields } }
    }
  `,
  [WebhookFields],
);

export const DELETE_WEBHOOK_MUTATION = graphql(`
  mutation ConsoleDeleteWebhook($input: WebhookIdInput!) {
    deleteWebhook(input: $input) { webhookId }
  }
`);

export const ROLL_WEBHOOK_SECRET_MUTATION = graphql(
  `
    mutation ConsoleRollWebhookSecret($input: WebhookIdInput!) {
      rollWebhookSecret(input: $input) { webhook { ...WebhookFields } }
    }
  `,
  [WebhookFields],
);

export const SEND_TEST_WEBHOOK_MUTATION = graphql(
  `
    mutation ConsoleSendTestWebhook($input: WebhookIdInput!) {
      sendTestWebhook(input: $input) { delivery { ...WebhookDeliveryFields } }
    }
  `,
  [WebhookDeliveryFields],
);

export const REDELIVER_WEBHOOK_MUTATION = graphql(
  `
    mutation ConsoleRedeliverWebhook($input: RedeliverWebhookInput!) {
      redeliverWebhook(input: $input) { delivery { ...WebhookDeliveryFields } }
    }
  `,
  [WebhookDeliveryFields],
);

/**
 * Each event: its wire name (the same in every language), and what the checkboxes say of it (a
 * catalog key whose `{event}` is the wire name).
 */
export const EVENT_TEXT: Record<WebhookEvent, [string, ConsoleMessageKey]> = {
  COMMENT_CREATED: ['comment.created', 'console.integrations.webhooks.event.COMMENT_CREATED'],
  COMMENT_APPROVED: ['comment.approved', 'console.integrations.webhooks.event.COMMENT_APPROVED'],
  COMMENT_REJECTED: ['comment.rejected', 'console.integrations.webhooks.event.COMMENT_REJECTED'],
  COMMENT_REPORTED: ['comment.reported', 'console.integrations.webhooks.event.COMMENT_REPORTED'],
  COMMENT_FEATURED: ['comment.featured', 'console.integrations.webhooks.event.COMMENT_FEATURED'],
  USER_BANNED: ['user.banned', 'console.integrations.webhooks.event.USER_BANNED'],
  USER_SUSPENDED: ['user.suspended', 'console.integrations.webhooks.event.USER_SUSPENDED'],
  STORY_CREATED: ['story.created', 'console.integrations.webhooks.event.STORY_CREATED'],
};
const EVENTS = Object.keys(EVENT_TEXT) as WebhookEvent[];

const STATE_TEXT: Record<Delivery['state'], ConsoleMessageKey> = {
  PENDING: 'console.integrations.webhooks.state.PENDING',
  DELIVERED: 'console.integrations.webhooks.state.DELIVERED',
  FAILED: 'console.integrations.webhooks.state.FAILED',
};

const when = (iso: string) => formatWhen(iso, { seconds: true });

/** The form's draft: a new endpoint, or the one being edited. */
interface Draft {
  id: string | null;
  url: string;
  description: string;
  events: WebhookEvent[];
  /** Fixed once made, as the site is. */
  format: WebhookFormat;
  /** '' for every site. */
  siteId: string;
}
const EMPTY: Draft = {
  id: null,
  url: '',
  description: '',
  events: [],
  format: 'STANDARD',
  siteId: '',
};

/**
 * Configure › Webhooks: endpoints that receive signed JSON POSTs of the events they take (the
 * README says how to verify them), each with its latest deliveries — status, attempts, the answer
 * — and "Send again", "Send test event", "Roll secret", enable and disable, edit and delete.
 */
export function WebhookSettings() {
  const { window: win } = useConsoleEnv();
  const t = useT();
  const errorText = useErrorText();
  const fieldErrorText = useFieldErrorText();
  const [{ data, error: loadError }, reload] = useQuery({ query: WEBHOOKS_QUERY });
  const [saving, create] = useMutation(CREATE_WEBHOOK_MUTATION);
  const [updating, update] = useMutation(UPDATE_WEBHOOK_MUTATION);
  const [, remove] = useMutation(DELETE_WEBHOOK_MUTATION);
  const [, roll] = useMutation(ROLL_WEBHOOK_SECRET_MUTATION);
  const [testing, sendTest] = useMutation(SEND_TEST_WEBHOOK_MUTATION);
  const [redelivering, redeliver] = useMutation(REDELIVER_WEBHOOK_MUTATION);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [fieldErrors, setFieldErrors] = useState<
    Partial<Record<'url' | 'events' | 'description', string>>
  >({});
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [fresh, setFresh] = useState<{ id: string; secret: string } | null>(null);
  const busy = saving.fetching || updating.fetching || testing.fetching || redelivering.fetching;
  const webhooks = data?.webhooks ?? [];
  const refresh = () => reload({ requestPolicy: 'network-only' });

  function failed(result: { error?: unknown }): boolean {
    if (!result.error) return false;
    const err = toTransportError(result.error as never);
    if (
      err.code === 'INVALID_INPUT' &&
      (err.field === 'url' || err.field === 'events' || err.field === 'description')
    ) {
      setFieldErrors({ [err.field]: fieldErrorText(err) });
      win.document.getElementById(`webhook-${err.field}`)?.focus();
    } else setError(errorText(err.code));
    return true;
  }

  async function onSave(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    const errors: typeof fieldErrors = {};
    if (draft.url.trim() === '') errors.url = t('console.integrations.webhooks.urlMissing');
    if (draft.events.length === 0) errors.events = t('console.integrations.webhooks.eventsMissing');
    setFieldErrors(errors);
    if (errors.url || errors.events) {
      win.document.getElementById(errors.url ? 'webhook-url' : 'webhook-events')?.focus();
      return;
    }
    const fields = {
      url: draft.url.trim(),
      description: draft.description.trim(),
      events: draft.events,
    };
    if (draft.id === null) {
      const input = {
        ...fields,
        format: draft.format,
        ...(draft.siteId === '' ? {} : { siteId: draft.siteId }),
      };
      // Sent once, never retried: a retry would make a second endpoint with a second secret.
      const result = await create({ input }, { clientMutationId: false });
      if (failed(result)) return;
      const made = result.data?.createWebhook.webhook;
      if (made?.secret) setFresh({ id: made.id, secret: made.secret });
    } else {
      const result = await update({ input: { webhookId: draft.id, ...fields } });
      if (failed(result)) return;
      setNotice(t('console.integrations.webhooks.saved'));
    }
    setDraft(EMPTY);
    refresh();
  }

  async function onRoll(webhook: ConsoleWebhook) {
    if (!win.confirm(t('console.integrations.webhooks.rollConfirm', { url: webhook.url }))) return;
    const result = await roll({ input: { webhookId: webhook.id } }, { clientMutationId: false });
    if (failed(result)) return;
    const secret = result.data?.rollWebhookSecret.webhook.secret;
    if (secret) setFresh({ id: webhook.id, secret });
  }

  async function onDelete(webhook: ConsoleWebhook) {
    if (!win.confirm(t('console.integrations.webhooks.deleteConfirm', { url: webhook.url })))
      return;
    const result = await remove({ input: { webhookId: webhook.id } });
    if (failed(result)) return;
    if (fresh?.id === webhook.id) setFresh(null);
    refresh();
  }

  async function onToggle(webhook: ConsoleWebhook) {
    const result = await update({ input: { webhookId: webhook.id, enabled: !webhook.enabled } });
    if (!failed(result)) refresh();
  }

  function said(delivery: Delivery | undefined): void {
    if (!delivery) return;
    setNotice(
      delivery.state === 'DELIVERED'
        ? t('console.integrations.webhooks.delivered', {
            // An HTTP status, not a quantity.
            status: String(delivery.responseStatus),
            ms: delivery.durationMs ?? 0,
          })
        : delivery.error
          ? t('console.integrations.webhooks.notDelivered', { error: delivery.error })
          : t('console.integrations.webhooks.notDeliveredNoAnswer'),
    );
    refresh();
  }

  async function onTest(webhook: ConsoleWebhook) {
    setError(null);
    const result = await sendTest(
      { input: { webhookId: webhook.id } },
      { clientMutationId: false },
    );
    if (!failed(result)) said(result.data?.sendTestWebhook.delivery);
  }

  async function onRedeliver(delivery: Delivery) {
    setError(null);
    const result = await redeliver(
      { input: { deliveryId: delivery.id } },
      { clientMutationId: false },
    );
    if (!failed(result)) said(result.data?.redeliverWebhook.delivery);
  }

  const toggleEvent = (event: WebhookEvent, on: boolean) =>
    setDraft((d) => ({
      ...d,
      events: on ? [...d.events, event] : d.events.filter((e) => e !== event),
    }));

  return (
    <div className="webhooks">
      <p>
        {t('console.integrations.webhooks.intro.before')}
        <code>POST</code>
        {t('console.integrations.webhooks.intro.after', {
          // Advanced's setting and section, as they are called there.
          setting: t('console.configure.advanced.webhooksAllowPrivateAddresses'),
          section: t('console.configure.section.advanced'),
        })}
      </p>
      <form
        onSubmit={(event) => void onSave(event)}
        noValidate
        aria-label={
          draft.id
            ? t('console.integrations.webhooks.formEdit')
            : t('console.integrations.webhooks.formNew')
        }
      >
        <Field
          id="webhook-url"
          label={t('console.integrations.webhooks.url')}
          type="url"
          placeholder="https://example.com/parley-hook"
          value={draft.url}
          error={fieldErrors.url}
          onChange={(event) => setDraft({ ...draft, url: event.target.value })}
        />
        <Field
          id="webhook-description"
          label={t('console.integrations.webhooks.description')}
          hint={t('console.integrations.webhooks.descriptionHint')}
          value={draft.description}
          maxLength={200}
          error={fieldErrors.description}
          onChange={(event) => setDraft({ ...draft, description: event.target.value })}
        />
        {draft.id === null && (
          <>
            <div className="field">
              <label htmlFor="webhook-format">
                {t('console.integrations.webhooks.formatLabel')}
              </label>
              <select
                id="webhook-format"
                value={draft.format}
                onChange={(event) =>
                  setDraft({ ...draft, format: event.target.value as WebhookFormat })
                }
              >
                {(Object.keys(FORMAT_TEXT) as WebhookFormat[]).map((format) => (
                  <option key={format} value={format}>
                    {t(FORMAT_TEXT[format][0])}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="webhook-site">{t('console.integrations.webhooks.site')}</label>
              <select
                id="webhook-site"
                value={draft.siteId}
                onChange={(event) => setDraft({ ...draft, siteId: event.target.value })}
              >
                <option value="">{t('console.integrations.webhooks.everySite')}</option>
                {(data?.sites ?? []).map((site) => (
                  <option key={site.id} value={site.id}>
                    {site.name}
                  </option>
                ))}
              </select>
            </div>
          </>
        )}
        <fieldset
          id="webhook-events"
          tabIndex={-1}
          aria-describedby={fieldErrors.events ? 'webhook-events-error' : undefined}
        >
          <legend>{t('console.integrations.webhooks.events')}</legend>
          {EVENTS.map((event) => (
            <label key={event} className="checkbox">
              <input
                type="checkbox"
                checked={draft.events.includes(event)}
                onChange={(e) => toggleEvent(event, e.target.checked)}
              />
              {t(EVENT_TEXT[event][1], { event: EVENT_TEXT[event][0] })}
            </label>
          ))}
          {fieldErrors.events && (
            <p className="field-error" id="webhook-events-error">
              {fieldErrors.events}
            </p>
          )}
        </fieldset>
        <div className="action-row">
          <button type="submit" className="primary" disabled={busy}>
            {draft.id
              ? t('console.integrations.webhooks.save')
              : t('console.integrations.webhooks.create')}
          </button>
          {draft.id && (
            <button type="button" onClick={() => setDraft(EMPTY)}>
              {t('console.integrations.webhooks.cancel')}
            </button>
          )}
        </div>
      </form>
      {fresh !== null && (
        <SecretShownOnce
          label={t('console.integrations.webhooks.secret.label')}
          secret={fresh.secret}
          testId="webhook-secret"
          copyLabel={t('console.integrations.webhooks.secret.copy')}
          onDismiss={() => setFresh(null)}
        >
          <strong>{t('console.integrations.webhooks.secret.title')}</strong>{' '}
          {t('console.integrations.webhooks.secret.text')}
        </SecretShownOnce>
      )}
      {error !== null && <p role="alert">{error}</p>}
      <p role="status">{notice}</p>
      <h2>{t('console.integrations.webhooks.title')}</h2>
      {loadError && !data ? (
        <p role="alert">{errorText(toTransportError(loadError).code)}</p>
      ) : !data ? (
        <p className="loading">{t('console.integrations.loading')}</p>
      ) : webhooks.length === 0 ? (
        <p>{t('console.integrations.webhooks.empty')}</p>
      ) : (
        webhooks.map((webhook) => (
          <section key={webhook.id} className="webhook" aria-label={webhook.url}>
            <h3>
              {webhook.url}{' '}
              {!webhook.enabled && (
                <span className="badge">{t('console.integrations.webhooks.disabled')}</span>
              )}
            </h3>
            {webhook.description && <p>{webhook.description}</p>}
            <p>
              {webhook.site
                ? t('console.integrations.webhooks.summary', {
                    format: t(FORMAT_TEXT[webhook.format][1]),
                    site: webhook.site.name,
                    events: webhook.events.map((e) => EVENT_TEXT[e][0]).join(', '),
                  })
                : t('console.integrations.webhooks.summaryEverySite', {
                    format: t(FORMAT_TEXT[webhook.format][1]),
                    events: webhook.events.map((e) => EVENT_TEXT[e][0]).join(', '),
                  })}
            </p>
            <div className="action-row">
              <button
                type="button"
                disabled={busy || !webhook.enabled}
                onClick={() => void onTest(webhook)}
              >
                {t('console.integrations.webhooks.sendTest')}
              </button>
              <button
                type="button"
                disabled={busy}
                onClick={() =>
                  setDraft({
                    id: webhook.id,
                    url: webhook.url,
                    description: webhook.description,
                    events: [...webhook.events],
                    format: webhook.format,
                    siteId: webhook.site?.id ?? '',
                  })
                }
              >
                {t('console.integrations.webhooks.edit')}
              </button>
              <button type="button" disabled={busy} onClick={() => void onToggle(webhook)}>
                {webhook.enabled
                  ? t('console.integrations.webhooks.disable')
                  : t('console.integrations.webhooks.enable')}
              </button>
              <button type="button" disabled={busy} onClick={() => void onRoll(webhook)}>
                {t('console.integrations.webhooks.rollSecret')}
              </button>
              <button type="button" disabled={busy} onClick={() => void onDelete(webhook)}>
                {t('console.integrations.webhooks.delete')}
              </button>
            </div>
            <DeliveryLog
              deliveries={webhook.deliveries.edges.map((e) => e.node)}
              busy={busy || !webhook.enabled}
              onRedeliver={(d) => void onRedeliver(d)}
            />
          </section>
        ))
      )}
    </div>
  );
}

/** An endpoint's latest deliveries, newest first. */
function DeliveryLog(props: {
  deliveries: Delivery[];
  busy: boolean;
  onRedeliver(delivery: Delivery): void;
}) {
  const t = useT();
  if (props.deliveries.length === 0) {
    return <p>{t('console.integrations.webhooks.deliveries.empty')}</p>;
  }
  return (
    <div className="table-wrap">
      <table>
        <caption>{t('console.integrations.webhooks.deliveries.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('console.integrations.webhooks.deliveries.column.event')}</th>
            <th scope="col">{t('console.integrations.webhooks.deliveries.column.queued')}</th>
            <th scope="col">{t('console.integrations.webhooks.deliveries.column.state')}</th>
            <th scope="col">{t('console.integrations.webhooks.deliveries.column.attempts')}</th>
            <th scope="col">{t('console.integrations.webhooks.deliveries.column.answer')}</th>
            <th scope="col">
              <span className="visually-hidden">
                {t('console.integrations.webhooks.deliveries.column.actions')}
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.deliveries.map((d) => (
            <tr key={d.id}>
              <th scope="row">{d.event}</th>
              <td>{when(d.createdAt)}</td>
              <td>
                {d.state === 'PENDING' && d.nextAttemptAt
                  ? t('console.integrations.webhooks.state.pendingNext', {
                      when: when(d.nextAttemptAt),
                    })
                  : t(STATE_TEXT[d.state])}
              </td>
              <td>{d.attempts}</td>
              <td>
                <details>
                  <summary>{answerText(t, d)}</summary>
                  {d.error && <p>{d.error}</p>}
                  {d.responseExcerpt && <pre>{d.responseExcerpt}</pre>}
                  <p>{t('console.integrations.webhooks.deliveries.sent', { id: d.eventId })}</p>
                  <pre>{d.payload}</pre>
                </details>
              </td>
              <td>
                <button
                  type="button"
                  disabled={props.busy}
                  aria-label={t('console.integrations.webhooks.deliveries.sendAgainNamed', {
                    event: d.event,
                  })}
                  onClick={() => props.onRedeliver(d)}
                >
                  {t('console.integrations.webhooks.deliveries.sendAgain')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A delivery's answer, as its summary says it: "500 in 41 ms", "No answer". */
function answerText(t: Translate<ConsoleMessageKey>, d: Delivery): string {
  // An HTTP status, not a quantity: no thousands separator.
  const status =
    d.responseStatus === null || d.responseStatus === undefined ? null : String(d.responseStatus);
  const ms = d.durationMs ?? null;
  if (status === null) {
    return ms === null
      ? t('console.integrations.webhooks.deliveries.noAnswer')
      : t('console.integrations.webhooks.deliveries.noAnswerIn', { ms });
  }
  return ms === null
    ? status
    : t('console.integrations.webhooks.deliveries.answer', { status, ms });
}
