import type { JetStreamClient, JetStreamManager, RetentionPolicy } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { UsageError } from '../core/index.ts';
import { NATS_ENV, parseQueueUrl } from './nats-url.ts';

/** The work-queue stream of run specs (subjects `grapevine.runs.<sweep>`). */
export const RUNS_STREAM = 'GRAPEVINE_RUNS';
/** The stream of results (subjects `grapevine.results.<sweep>`). */
export const RESULTS_STREAM = 'GRAPEVINE_RESULTS';
/** The subject malformed specs are sent to, with the reason. */
export const DEAD_LETTER_SUBJECT = 'grapevine.dead';
/** The durable pull consumer every worker shares. */
export const WORKERS_CONSUMER = 'grapevine-workers';

/** An open queue: the connection and its JetStream handles. */
export interface NatsQueue {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
}

/**
 * Connects to a nats-server with JetStream and makes sure the streams exist; a worker
 * (`ackWaitMs` given) also makes sure the workers' consumer exists with that ack wait. The
 * sweep side passes no ack wait, so it never changes the one the workers chose. The
 * connection reconnects for ever once made (a restarted server loses nothing: the streams
 * are on its disk).
 *
 * @throws UsageError (exit 2) when the server cannot be reached or has no JetStream.
 */
export async function openNatsQueue(url: string, ackWaitMs?: number): Promise<NatsQueue> {
  const endpoint = parseQueueUrl(url);
  // The NATS client is loaded here, not at import: a world file that imports `grapevine` and
  // never opens a queue does not pay for it.
  const { connect, credsAuthenticator, jetstream, jetstreamManager, RetentionPolicy } = await import(
    './nats-client.ts'
  );
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: endpoint.server,
      timeout: 3000,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      ...(endpoint.user === undefined ? {} : { user: endpoint.user, pass: endpoint.pass }),
      ...(endpoint.token === undefined ? {} : { token: endpoint.token }),
      ...(endpoint.creds ? { authenticator: credsAuthenticator(endpoint.creds) } : {}),
      ...(endpoint.tls ? { tls: endpoint.tls } : {}),
    });
  } catch (cause) {
    throw new UsageError(`cannot reach the queue at ${endpoint.shown}: ${(cause as Error).message}`, {
      cause,
      hint: connectHint(String((cause as Error).message)),
    });
  }
  try {
    const jsm = await jetstreamManager(nc);
    await ensureStream(jsm, {
      name: RUNS_STREAM,
      subjects: ['grapevine.runs.>'],
      retention: RetentionPolicy.Workqueue,
    });
    await ensureStream(jsm, {
      name: RESULTS_STREAM,
      subjects: ['grapevine.results.>'],
      retention: RetentionPolicy.Limits,
    });
    if (ackWaitMs !== undefined) await ensureWorkersConsumer(jsm, ackWaitMs);
    return { nc, js: jetstream(nc), jsm };
  } catch (cause) {
    await nc.close();
    throw new UsageError(
      `the queue at ${endpoint.shown} has no usable JetStream: ${(cause as Error).message}`,
      {
        cause,
        hint: 'start nats-server with -js (docs/DISTRIBUTED.md)',
      },
    );
  }
}

/** What to do about a failed connection, by its reason. */
function connectHint(reason: string): string {
  if (/authori[sz]ation|authentication/i.test(reason))
    return `the server wants credentials: ${NATS_ENV.user} and ${NATS_ENV.password}, ${NATS_ENV.token}, ${NATS_ENV.creds}, or nats://USER:PASSWORD@HOST:PORT (docs/DISTRIBUTED.md)`;
  if (/certificate|tls|ssl/i.test(reason))
    return `TLS failed: give the server's CA certificate with ${NATS_ENV.ca}=ca.pem (docs/DISTRIBUTED.md)`;
  return 'start it with: nats-server -js (docs/DISTRIBUTED.md)';
}

/** The workers' durable consumer, created or given this ack wait (the last worker to start sets it). */
async function ensureWorkersConsumer(jsm: JetStreamManager, ackWaitMs: number): Promise<void> {
  const { AckPolicy } = await import('./nats-client.ts');
  const consumer = {
    durable_name: WORKERS_CONSUMER,
    ack_policy: AckPolicy.Explicit,
    ack_wait: ackWaitMs * 1e6,
  };
  await jsm.consumers
    .add(RUNS_STREAM, consumer)
    .catch(() => jsm.consumers.update(RUNS_STREAM, WORKERS_CONSUMER, { ack_wait: consumer.ack_wait }));
}

async function ensureStream(
  jsm: JetStreamManager,
  cfg: { name: string; subjects: string[]; retention: RetentionPolicy },
): Promise<void> {
  try {
    await jsm.streams.info(cfg.name);
  } catch {
    await jsm.streams.add(cfg);
  }
}
