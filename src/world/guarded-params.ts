import { distance } from 'fastest-levenshtein';
import { ConfigError, firstFrame, frameText, isWorldCode } from '../core/index.ts';

/** Names generic code reads from any object (promise resolution, JSON): never a world's mistake. */
const PROBED: ReadonlySet<string> = new Set([
  'then',
  'toJSON',
  ...Object.getOwnPropertyNames(Object.prototype),
]);

/** The declared name closest to `key` (edit distance at most 2, or the same but for case), if any. */
export function closestName(key: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const d = name.toLowerCase() === key.toLowerCase() ? 0.5 : distance(name, key);
    if (d < bestD) [best, bestD] = [name, d];
  }
  return bestD <= Math.min(2, Math.max(1, key.length / 3)) ? best : undefined;
}

/** Where the read of a missing key came from: the reading function's frame. */
function readerFrame(): ReturnType<typeof firstFrame> {
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, readerFrame);
  // frame 0 is the trap; frame 1 the code that read the key
  return firstFrame((holder.stack ?? '').split('\n').slice(2).join('\n'));
}

/**
 * A world's parameters that refuse to be read at a key the world does not declare: the
 * declared keys are the object's own data properties (read at full speed), and a missing
 * one falls through to a prototype whose trap throws a {@link ConfigError} naming the key,
 * the closest declared name and where the world read it. Only a world's own code is refused
 * (grapevine's helpers and libraries may probe optional keys), and only on a miss, where the
 * stack is looked at.
 */
export function guardParams<P extends Record<string, unknown>>(
  worldId: string,
  params: P,
  declared: readonly string[],
): P {
  const trap = new Proxy(
    {},
    {
      get(target, key, receiver) {
        if (typeof key === 'symbol' || PROBED.has(key)) return Reflect.get(target, key, receiver);
        const frame = readerFrame();
        if (!frame || !isWorldCode(frame.file)) return undefined;
        const near = closestName(key, declared);
        throw new ConfigError(
          `world "${worldId}" read params.${key}, which it does not declare${near ? `; did you mean ${near}?` : ''} (${frameText(frame)})`,
          {
            hint: near
              ? `fix the name at ${frameText(frame)}, or declare ${key} in the world's params`
              : `declare ${key} in the world's params (z.object({ ... })), or fix the name; declared: ${declared.join(', ')}`,
          },
        );
      },
    },
  );
  const guarded = Object.create(trap) as Record<string, unknown>;
  // a declared parameter without a value (optional, no default) is read as undefined
  for (const key of declared) guarded[key] = undefined;
  return Object.assign(guarded, params) as P;
}
