import { useState } from 'react';
import { formatWhen } from '../../formatWhen';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { errorText } from '../../errorText';
import { Field } from '../../Field';
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

/** Each format as the select says it, and its short name. */
export const FORMAT_TEXT: Record<WebhookFormat, [string, string]> = {
  STANDARD: ['Signed JSON, for your own code', 'Signed JSON'],
  SLACK: ['Slack message (Slack, Mattermost, Rocket.Chat, Discord’s /slack)', 'Slack message'],
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

/** Each event as the checkboxes say it, with its wire name. */
export const EVENT_TEXT: Record<WebhookEvent, string> = {
  COMMENT_CREATED: 'comment.created: a comment is posted',
  COMMENT_APPROVED: 'comment.approved: a moderator approves one',
  COMMENT_REJECTED: 'comment.rejected: a moderator rejects one',
  COMMENT_REPORTED: 'comment.reported: a reader reports one',
  COMMENT_FEATURED: 'comment.featured: a moderator features one',
  USER_BANNED: 'user.banned: a moderator bans someone',
  USER_SUSPENDED: 'user.suspended: a moderator suspends someone',
  STORY_CREATED: 'story.created: a story is seen for the first time',
};
const EVENTS = Object.keys(EVENT_TEXT) as WebhookEvent[];

const STATE_TEXT: Record<Delivery['state'], string> = {
  PENDING: 'Retrying',
  DELIVERED: 'Delivered',
  FAILED: 'Given up',
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
      setFieldErrors({ [err.field]: err.message });
      win.document.getElementById(`webhook-${err.field}`)?.focus();
    } else setError(errorText(err.code));
    return true;
  }

  async function onSave(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    const errors: typeof fieldErrors = {};
    if (draft.url.trim() === '') errors.url = 'Give the endpoint’s http or https URL.';
    if (draft.events.length === 0) errors.events = 'Choose at least one event.';
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
      setNotice('Endpoint saved.');
    }
    setDraft(EMPTY);
    refresh();
  }

  async function onRoll(webhook: ConsoleWebhook) {
    if (
      !win.confirm(
        `Roll the secret of ${webhook.url}? Its receiver must take the new one: the old one stops at once.`,
      )
    )
      return;
    const result = await roll({ input: { webhookId: webhook.id } }, { clientMutationId: false });
    if (failed(result)) return;
    const secret = result.data?.rollWebhookSecret.webhook.secret;
    if (secret) setFresh({ id: webhook.id, secret });
  }

  async function onDelete(webhook: ConsoleWebhook) {
    if (!win.confirm(`Delete the endpoint ${webhook.url} and its log?`)) return;
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
        ? `Delivered: the endpoint answered ${delivery.responseStatus} in ${delivery.durationMs} ms.`
        : `Not delivered: ${delivery.error ?? 'no answer'}. It is tried again.`,
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
        Each endpoint receives a signed JSON <code>POST</code> of the events it takes, retried for a
        day until it answers 2xx. The README’s “Webhooks” section shows the body and how to check
        the signature. Endpoints on your own network need “Allow webhooks to private addresses” in
        Advanced.
      </p>
      <form
        onSubmit={(event) => void onSave(event)}
        noValidate
        aria-label={draft.id ? 'Edit webhook' : 'New webhook'}
      >
        <Field
          id="webhook-url"
          label="Endpoint URL"
          type="url"
          placeholder="https://example.com/parley-hook"
          value={draft.url}
          error={fieldErrors.url}
          onChange={(event) => setDraft({ ...draft, url: event.target.value })}
        />
        <Field
          id="webhook-description"
          label="Description"
          hint="What it is for, such as “Newsroom Slack bot”."
          value={draft.description}
          maxLength={200}
          error={fieldErrors.description}
          onChange={(event) => setDraft({ ...draft, description: event.target.value })}
        />
        {draft.id === null && (
          <>
            <div className="field">
              <label htmlFor="webhook-format">Format</label>
              <select
                id="webhook-format"
                value={draft.format}
                onChange={(event) =>
                  setDraft({ ...draft, format: event.target.value as WebhookFormat })
                }
              >
                {(Object.keys(FORMAT_TEXT) as WebhookFormat[]).map((format) => (
                  <option key={format} value={format}>
                    {FORMAT_TEXT[format][0]}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="webhook-site">Site</label>
              <select
                id="webhook-site"
                value={draft.siteId}
                onChange={(event) => setDraft({ ...draft, siteId: event.target.value })}
              >
                <option value="">Every site</option>
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
          <legend>Events</legend>
          {EVENTS.map((event) => (
            <label key={event} className="checkbox">
              <input
                type="checkbox"
                checked={draft.events.includes(event)}
                onChange={(e) => toggleEvent(event, e.target.checked)}
              />
              {EVENT_TEXT[event]}
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
            {draft.id ? 'Save endpoint' : 'Add endpoint'}
          </button>
          {draft.id && (
            <button type="button" onClick={() => setDraft(EMPTY)}>
              Cancel
            </button>
          )}
        </div>
      </form>
      {fresh !== null && (
        <SecretShownOnce
          label="Webhook signing secret"
          secret={fresh.secret}
          testId="webhook-secret"
          copyLabel="Copy secret"
          onDismiss={() => setFresh(null)}
        >
          <strong>Signing secret, shown once.</strong> Give it to the receiver now: it checks each
          request’s signature with it, and it cannot be shown again.
        </SecretShownOnce>
      )}
      {error !== null && <p role="alert">{error}</p>}
      <p role="status">{notice}</p>
      <h2>Endpoints</h2>
      {loadError && !data ? (
        <p role="alert">{errorText(toTransportError(loadError).code)}</p>
      ) : !data ? (
        <p className="loading">Loading…</p>
      ) : webhooks.length === 0 ? (
        <p>No webhooks yet.</p>
      ) : (
        webhooks.map((webhook) => (
          <section key={webhook.id} className="webhook" aria-label={webhook.url}>
            <h3>
              {webhook.url} {!webhook.enabled && <span className="badge">Disabled</span>}
            </h3>
            {webhook.description && <p>{webhook.description}</p>}
            <p>
              {FORMAT_TEXT[webhook.format][1]}, {webhook.site ? webhook.site.name : 'every site'}.
              Events: {webhook.events.map((e) => EVENT_TEXT[e].split(':')[0]).join(', ')}
            </p>
            <div className="action-row">
              <button
                type="button"
                disabled={busy || !webhook.enabled}
                onClick={() => void onTest(webhook)}
              >
                Send test event
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
                Edit
              </button>
              <button type="button" disabled={busy} onClick={() => void onToggle(webhook)}>
                {webhook.enabled ? 'Disable' : 'Enable'}
              </button>
              <button type="button" disabled={busy} onClick={() => void onRoll(webhook)}>
                Roll secret
              </button>
              <button type="button" disabled={busy} onClick={() => void onDelete(webhook)}>
                Delete
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
  if (props.deliveries.length === 0) return <p>No deliveries yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption>Latest deliveries</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Queued</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Answer</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.deliveries.map((d) => (
            <tr key={d.id}>
              <th scope="row">{d.event}</th>
              <td>{when(d.createdAt)}</td>
              <td>
                {STATE_TEXT[d.state]}
                {d.state === 'PENDING' && d.nextAttemptAt ? `, next ${when(d.nextAttemptAt)}` : ''}
              </td>
              <td>{d.attempts}</td>
              <td>
                <details>
                  <summary>
                    {d.responseStatus ?? 'No answer'}
                    {d.durationMs !== null && d.durationMs !== undefined
                      ? ` in ${d.durationMs} ms`
                      : ''}
                  </summary>
                  {d.error && <p>{d.error}</p>}
                  {d.responseExcerpt && <pre>{d.responseExcerpt}</pre>}
                  <p>Sent (webhook-id {d.eventId}):</p>
                  <pre>{d.payload}</pre>
                </details>
              </td>
              <td>
                <button type="button" disabled={props.busy} onClick={() => props.onRedeliver(d)}>
                  Send again<span className="visually-hidden"> {d.event}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
