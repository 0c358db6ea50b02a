import { type LogSummary, readLog } from '../read/read-log.ts';
import { writeLogFile } from '../write/log-file.ts';

/**
 * Writes the whole content of a log (a delta child's past read from its parents, then its
 * own lines) to `dst` as one self-contained log: the same lines, byte for byte, as a
 * standalone fork would have written, hence the same digest. Every line is verified on
 * the way; `dst` may be `src` itself.
 *
 * @throws LogFormatError when `src` (or a parent) does not verify, or `dst` cannot be written.
 */
export async function flattenLog(src: string, dst: string): Promise<LogSummary & { digest: string }> {
  const lines = readLog(src);
  let summary: LogSummary | undefined;
  async function* raws(): AsyncGenerator<string> {
    for (let step = await lines.next(); ; step = await lines.next()) {
      if (step.done) {
        summary = step.value;
        return;
      }
      yield step.value.raw;
    }
  }
  await writeLogFile(dst, raws());
  return summary as LogSummary & { digest: string };
}
