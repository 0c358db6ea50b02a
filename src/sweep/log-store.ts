import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { ObjectStore } from '@nats-io/obj';
import { RunError, UsageError } from '../core/index.ts';

/** Where a finished run's log was put in a JetStream object store (carried by its result). */
export interface StoredLogRef {
  bucket: string;
  /** The object's name: `<sweep>/<run>.ndjson`. */
  name: string;
}

/** The prefix of a `--logs` value that names an object store bucket instead of a folder. */
export const OBJECT_STORE_SCHEME = 'nats-obj://';

const BUCKET = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The bucket named by a `--logs nats-obj://BUCKET` value, or undefined for a folder.
 *
 * @throws UsageError (exit 2) when the bucket name is not letters, digits, `-` or `_`.
 */
export function objectStoreBucket(logs: string | undefined): string | undefined {
  if (!logs?.startsWith(OBJECT_STORE_SCHEME)) return undefined;
  const bucket = logs.slice(OBJECT_STORE_SCHEME.length);
  if (!BUCKET.test(bucket))
    throw new UsageError(`--logs ${logs}: a bucket name is 1 to 64 letters, digits, "-" or "_"`, {
      hint: '--logs nats-obj://grapevine-logs',
    });
  return bucket;
}

/** The object name of a run's log. */
export const storedLogName = (sweep: string, id: string) => `${sweep}/${id}.ndjson`;

/** The object name of a log's verification index (`<log>.verified`), stored beside it when the run wrote one. */
const indexName = (name: string) => `${name}.verified`;

/**
 * The logs of a worker's runs in a JetStream object store: each finished log (and its
 * `.verified` index, if the run wrote one) is put under `<sweep>/<run>.ndjson`, so the
 * coordinator fetches it and no folder is shared between machines. Puts and gets stream
 * the file (a log is not held in memory whole); the store checks each object's SHA-256.
 */
export class RunLogStore {
  private constructor(
    readonly bucket: string,
    private readonly store: ObjectStore,
  ) {}

  /** Opens the bucket, creating it (file storage) when it does not exist. */
  static async open(js: JetStreamClient, bucket: string): Promise<RunLogStore> {
    const { Objm, StorageType } = await import('./nats-client.ts');
    const store = await new Objm(js).create(bucket, { storage: StorageType.File });
    return new RunLogStore(bucket, store);
  }

  /** Opens an existing bucket (the coordinator's side: it only reads). */
  static async existing(js: JetStreamClient, bucket: string): Promise<RunLogStore> {
    const { Objm } = await import('./nats-client.ts');
    return new RunLogStore(bucket, await new Objm(js).open(bucket));
  }

  /** Puts the log at `path` (and its index when present) under `name`; returns where it is. */
  async put(name: string, path: string): Promise<StoredLogRef> {
    await this.putFile(name, path);
    const index = `${path}.verified`;
    if (existsSync(index)) await this.putFile(indexName(name), index);
    else await this.store.delete(indexName(name)).catch(() => undefined);
    return { bucket: this.bucket, name };
  }

  /**
   * Writes the object `name` to `path` (through a file beside it, renamed once whole and
   * its digest checked); also its index when there is one. False when there is no object.
   */
  async get(name: string, path: string): Promise<boolean> {
    if (!(await this.getFile(name, path))) return false;
    const index = `${path}.verified`;
    if (!(await this.getFile(indexName(name), index))) rmSync(index, { force: true });
    return true;
  }

  /** Removes a log (and its index) from the store: it did not verify. */
  async remove(name: string): Promise<void> {
    await this.store.delete(name).catch(() => undefined);
    await this.store.delete(indexName(name)).catch(() => undefined);
  }

  private async putFile(name: string, path: string): Promise<void> {
    const body = Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
    await this.store.put({ name }, body);
  }

  private async getFile(name: string, path: string): Promise<boolean> {
    const found = await this.store.get(name);
    if (!found) return false;
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.part-${process.pid}`;
    try {
      await pipeline(
        Readable.fromWeb(found.data as unknown as WebReadableStream<Uint8Array>),
        createWriteStream(tmp),
      );
      const err = await found.error;
      if (err) throw err;
      renameSync(tmp, path);
    } catch (cause) {
      rmSync(tmp, { force: true });
      throw new RunError(
        `cannot fetch ${name} from the object store ${this.bucket}: ${(cause as Error).message}`,
        {
          cause,
        },
      );
    }
    return true;
  }
}
