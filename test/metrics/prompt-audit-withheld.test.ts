import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditPrompts } from '../../src/metrics/index.ts';
import { LogWriter } from '../../src/replay/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const SECRET = 'the mayor sold the bridge';

/**
 * A full log written with addressees: agent 0 says its secret to agent 2; the rule
 * `direct-needs-edge` withholds it; agent 2's prompt holds the secret all the same, and
 * (with `breach`) agent 2's observe line lists the withheld message.
 */
function writeLog(path: string, breach: boolean): void {
  const w = LogWriter.create(path, {
    engine: '0.1.0',
    world: { id: 'x', version: '1.0.0', source: { kind: 'builtin' } },
    params: {},
    seed: 1,
    ticks: 3,
    level: 'full',
    addressees: true,
    size: 3,
  });
  w.append('send', 1, {
    id: 0,
    from: 0,
    route: 'direct',
    kind: 'say',
    payload: { text: SECRET },
    deliverAt: 2,
    recipients: 1,
    to: [2],
  });
  w.append('withheld', 2, { id: 0, rule: 'direct-needs-edge', to: [2] });
  if (breach) w.append('observe', 2, { agent: 2, msgs: [0] });
  w.append('llm', 2, { caller: '2', messages: [{ role: 'user', content: `You heard: ${SECRET}` }] });
  w.append('end', 2, { reason: 'max-ticks' });
  w.close();
}

describe('audit of withheld deliveries', () => {
  const owner = [{ owner: 0, kind: 'secret', text: SECRET }];

  it('counts withheld deliveries per rule and names the rule a leaked text went around', async () => {
    const path = join(tempDir('audit-withheld'), 'leak.ndjson');
    writeLog(path, false);
    const r = await auditPrompts(path, owner);
    expect(r.withheld).toEqual({ 'direct-needs-edge': 1 });
    expect(r.leaks).toHaveLength(1);
    expect(r.leaks[0]).toMatchObject({ caller: 2, owner: 0, withheldBy: 'direct-needs-edge' });
    expect(r.breaches).toEqual([]);
  });

  it('flags a message observed by an agent a rule withheld it from', async () => {
    const path = join(tempDir('audit-withheld'), 'breach.ndjson');
    writeLog(path, true);
    const r = await auditPrompts(path, owner);
    expect(r.breaches).toEqual([{ seq: 3, tick: 2, agent: 2, message: 0, rule: 'direct-needs-edge' }]);
  });
});
