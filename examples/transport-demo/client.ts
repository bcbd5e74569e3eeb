import { gql } from '@urql/core';
import { pipe, subscribe } from 'wonka';
import { createTransport } from '@parley/transport';

const $ = (id: string) => document.getElementById(id) as HTMLElement;

// The API lives where this script came from, as embed.js will find its server.
const transport = createTransport({ url: new URL('/graphql', import.meta.url).href });
const { client, storage } = transport;
const show = (value: number) => ($('counter').textContent = String(value));
const fail = (error: { code?: string; message: string }) =>
  ($('error').textContent = `${error.code ?? 'ERROR'}: ${error.message}`);

transport.onStatusChange((status) => {
  $('status').textContent = status;
  $('status').dataset.status = status;
});

client
  .query(
    gql`
      query Counter {
        counter {
          id
          value
        }
      }
    `,
    {},
  )
  .toPromise()
  .then(({ data, error }) => (error ? fail(error) : show(data.counter.value)));

pipe(
  client.subscription(
    gql`
      subscription CounterChanged {
        counterChanged {
          id
          value
        }
      }
    `,
    {},
  ),
  subscribe(({ data, error }) => (error ? fail(error) : show(data.counterChanged.value))),
);

$('increment').addEventListener('click', async () => {
  const { data, error } = await client
    .mutation(
      gql`
        mutation Increment {
          increment {
            id
            value
          }
        }
      `,
      {},
    )
    .toPromise();
  if (error) fail(error);
  else show(data.increment.value);
});

const draft = $('draft') as HTMLTextAreaElement;
const showUsage = async () => {
  const { bytes, maxBytes } = await storage.usage();
  $('backend').textContent = storage.backend;
  $('usage').textContent = `${bytes} of ${maxBytes} bytes`;
};
void storage.get<string>('draft').then((text) => {
  if (text !== undefined) draft.value = text;
  void showUsage();
});
draft.addEventListener('input', () => {
  storage.set('draft', draft.value).then(showUsage, fail);
});
