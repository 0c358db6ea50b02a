import { formatBattery, runBattery } from '/work/wt/encounters/src/index.ts';
import { rumorValidationCases } from '/work/wt/encounters/worlds/rumor/validation.ts';
const t0 = Date.now();
const rows = await runBattery(rumorValidationCases(), { quick: true, only: process.argv[2] || undefined, onCase: (r) => console.log(r.id, r.mean, r.pass, Date.now() - t0) });
console.log(formatBattery(rows));
