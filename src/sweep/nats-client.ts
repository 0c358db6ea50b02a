// The NATS client's values, imported dynamically (by nats-queue and log-store) where a queue or
// an object store is opened, so that importing the public API does not load the client (~1 MB of
// bundled code). The packages are CommonJS: imported statically here, the bundle and Node both
// give their named exports; a dynamic import of the package itself would give only `default`
// in the bundled CLI (esbuild's chunk for a CommonJS module exports its module.exports so).
export { AckPolicy, jetstream, jetstreamManager, RetentionPolicy } from '@nats-io/jetstream';
export { Objm, StorageType } from '@nats-io/obj';
export { connect, credsAuthenticator } from '@nats-io/transport-node';
