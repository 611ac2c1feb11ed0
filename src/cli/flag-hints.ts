import type { ForkpointError, Remedy } from '../errors/index.js';

/**
 * An error's message as the CLI says it: what happened, then what to do next
 * in flags (`choose another --run-id`) where the library's message names its
 * options (`choose another runId`). Errors without a remedy read as they are.
 */
export function cliMessage(error: ForkpointError): string {
  // An error made by another copy of forkpoint (a scenario built against an older one) may carry no details.
  const remedy = Object.hasOwn(error, 'details') ? error.details.remedy : undefined;
  return remedy === undefined ? error.message : `${error.problem}${flagHint(remedy)}`;
}

/** A remedy in the CLI's terms, with the punctuation that joins it to the problem. */
export function flagHint(remedy: Remedy): string {
  switch (remedy.kind) {
    case 'choose-run-id':
      return '; choose another --run-id';
    case 'open-another-store':
      return `; ${[...(remedy.restore === true ? ['restore it from a copy'] : []), 'point --db at another file', ...(remedy.moveAside === true ? ['move this one aside'] : [])].join(', or ')}`;
    case 'choose-schema':
      return `; ${remedy.restore === true ? 'restore it from a copy, or ' : ''}point --db at a schema of its own (\`postgres://...?schema=NAME\`)`;
    case 'replay-structural':
      return remedy.runId === undefined
        ? ': replay it with --tier structural'
        : `: \`forkpoint replay ${remedy.runId} --tier structural\``;
    case 'structural-cassette':
      return `: \`forkpoint export ${remedy.runId} --tier structural\` writes one`;
    case 'export-structural':
      return `; export its structural tier instead: \`forkpoint export ${remedy.runId} --tier structural\``;
    case 'fork-instead':
      return `; fork it to try a change (\`forkpoint fork ${remedy.runId} --at-step N ...\`)`;
    case 'use-agent':
      return `; use a build of ${remedy.agent}, or --scenario DIR of the scenario it came from`;
    case 'record-synthetic':
      return '. Export the run again, or record fixtures in the synthetic tier (`record --tier synthetic`)';
    case 'open-sealing-store':
      return ': read it with --db pointing at the store that exported it';
    case 'override-for-step':
      return remedy.step === 'model'
        ? '. At a model step use --model-response, --system-prompt or --model, or pick a tool step'
        : remedy.step === 'tool'
          ? '. At a tool step use --tool-result, --tool-merge, --tool-patch or --tool-error'
          : ". At a person's answer use --approval approved|rejected (with --reason TEXT)";
    case 'run-verification':
      return `; make its arms with \`forkpoint verify ${remedy.runId} --candidate ${remedy.candidate} --baseline ${remedy.baseline}${remedy.mode === 'reexecution' ? ` --mode reexecution --at ${remedy.at ?? 'DATE'}` : ''}\``;
    case 'run-divergence-report':
      return `; make them with \`forkpoint divergence-report ${remedy.runIds === null ? '--all-recorded' : `--runs ${remedy.runIds.join(',')}`} --at ${remedy.at}${remedy.build === null ? '' : ` --build ${remedy.build}`}\``;
  }
}
