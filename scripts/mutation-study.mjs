// The mutation study of the structural tier: plants harness bugs in the claims-triage baseline and counts the
// synthetic cassettes on which strict replay (full tier) and structural replay catch each one.
// Run with `npm run mutation-study` (it builds first). Prints a table, a summary line and the elapsed time.
import { formatStudy } from '../dist/studies/mutation-study/format-study.js';
import { runMutationStudy } from '../dist/studies/mutation-study/run-study.js';

const started = process.hrtime.bigint();
const study = await runMutationStudy();
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(formatStudy(study));
console.log(
  `\nelapsed: ${seconds.toFixed(1)} s (${study.cases} cases, ${study.rows.length} mutants and the unmutated build, two tiers each)`,
);
