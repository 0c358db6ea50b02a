import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/**
 * Records a V8 CPU profile of one phase of this process through the inspector (so that
 * module loading and set-up stay out of it), and writes it as a `.cpuprofile` that
 * `bench/tools/cpuprofile-summary.ts` and Chrome DevTools read. An in-process inspector session
 * answers synchronously, so {@link InspectorProfile.start} returns with sampling on.
 */
export class InspectorProfile {
  private constructor(private readonly session: Session) {}

  /** Starts sampling every `intervalUs` microseconds. */
  static start(intervalUs = 100): InspectorProfile {
    const session = new Session();
    session.connect();
    const fail = (err: Error | null): void => {
      if (err) throw err;
    };
    session.post('Profiler.enable', fail);
    session.post('Profiler.setSamplingInterval', { interval: intervalUs }, fail);
    session.post('Profiler.start', fail);
    return new InspectorProfile(session);
  }

  /** Stops sampling and writes the profile to `path`. */
  stop(path: string): void {
    this.session.post('Profiler.stop', (err, result) => {
      if (err) throw err;
      writeFileSync(path, JSON.stringify(result.profile));
    });
    this.session.disconnect();
  }
}
