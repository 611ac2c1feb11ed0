/**
 * What the caller can do about an error, as data rather than words, so that
 * each front end says it in its own terms: the library names its options
 * (`runId`, `mode: 'structural'`), the CLI names its flags (`--run-id`,
 * `--tier structural`). An error's `message` ends with the library's words.
 */
export type Remedy =
  /** The run id asked for is taken: choose another (`runId`). */
  | { readonly kind: 'choose-run-id' }
  /** The store's file is not usable: open another, or restore or move this one. */
  | { readonly kind: 'open-another-store'; readonly restore?: boolean; readonly moveAside?: boolean }
  /** The PostgreSQL schema is not usable by this store: give it a schema of its own, or restore this one. */
  | { readonly kind: 'choose-schema'; readonly restore?: boolean }
  /** Replay by shape: the structural tier of `runId` (or of the cassette at hand) still serves. */
  | { readonly kind: 'replay-structural'; readonly runId?: string }
  /** A structural cassette of `runId` is what fits. */
  | { readonly kind: 'structural-cassette'; readonly runId: string }
  /** The full tier of `runId` is gone; its structural tier can still be exported. */
  | { readonly kind: 'export-structural'; readonly runId: string }
  /** The run must not be resumed; fork it to try a change. */
  | { readonly kind: 'fork-instead'; readonly runId: string }
  /** The run belongs to another agent: use a build of `agent`. */
  | { readonly kind: 'use-agent'; readonly agent: string }
  /** A full tier in the clear without a seal: export again, or record fixtures in the synthetic tier. */
  | { readonly kind: 'record-synthetic' }
  /** A sealed cassette opens only through the store that sealed it. */
  | { readonly kind: 'open-sealing-store' }
  /** The override does not fit the step: a `step` of this type takes the other kinds of override. */
  | { readonly kind: 'override-for-step'; readonly step: 'model' | 'tool' | 'approval' }
  /** No arm of this verification is stored: run it, and the arms are stored under the recording. */
  | {
      readonly kind: 'run-verification';
      readonly runId: string;
      readonly candidate: string;
      readonly baseline: string;
      readonly mode: 'replay' | 'reexecution';
      /** The world's date of re-executed arms, when one was asked for. */
      readonly at?: string;
    }
  /** No re-execution of these runs is stored: make them with a divergence report. */
  | {
      readonly kind: 'run-divergence-report';
      /** The recorded runs to re-execute; null: every recorded run. */
      readonly runIds: readonly string[] | null;
      readonly at: string;
      /** The build to re-execute with; null: each run's own. */
      readonly build: string | null;
    };

/** The remedy in the library's terms, with the punctuation that joins it to the problem. */
export function describeRemedy(remedy: Remedy): string {
  switch (remedy.kind) {
    case 'choose-run-id':
      return '; choose another `runId`';
    case 'open-another-store':
      return `; ${[...(remedy.restore === true ? ['restore it from a copy'] : []), 'open a store on another file', ...(remedy.moveAside === true ? ['move this one aside'] : [])].join(', or ')}`;
    case 'choose-schema':
      return `; ${remedy.restore === true ? 'restore it from a copy, or ' : ''}give the store a schema of its own (\`schema\`, or \`?schema=NAME\` in its URL)`;
    case 'replay-structural':
      return remedy.runId === undefined
        ? ": replay it with `mode: 'structural'`"
        : `: replay \`engine.cassette('${remedy.runId}', 'structural')\` with \`mode: 'structural'\``;
    case 'structural-cassette':
      return `: \`engine.cassette('${remedy.runId}', 'structural')\` is one`;
    case 'export-structural':
      return `; export its structural tier instead: \`engine.exportCassette('${remedy.runId}', { tier: 'structural' })\``;
    case 'fork-instead':
      return `; fork it to try a change (\`engine.fork({ parentRunId: '${remedy.runId}', atStep, override, ... })\`)`;
    case 'use-agent':
      return `; use a build of ${remedy.agent}`;
    case 'record-synthetic':
      return ". Export the run again, or record fixtures in the synthetic tier (`tier: 'synthetic'`)";
    case 'open-sealing-store':
      return ': read it through the store that exported it';
    case 'override-for-step':
      return remedy.step === 'model'
        ? '. At a model step use a model-response, model-patch, system-prompt or model override, or pick a tool step'
        : remedy.step === 'tool'
          ? '. At a tool step use a tool-result, tool-merge, tool-patch or tool-error override, or pick a model step'
          : ". At a person's answer use an approval override ({ kind: 'approval', approved: false, note })";
    case 'run-verification':
      return `; make its arms with \`verifyRun(engine, { runId: '${remedy.runId}', candidate, baseline, mode: '${remedy.mode}'${remedy.mode === 'reexecution' ? ', world' : ''} })\` with the builds ${remedy.candidate} and ${remedy.baseline}${remedy.at === undefined ? '' : ` and a world of ${remedy.at}`}`;
    case 'run-divergence-report':
      return `; make them with \`divergenceReport(engine, { runIds${remedy.runIds === null ? '' : `: ${JSON.stringify(remedy.runIds)}`}, plan })\`, its plan's worlds of ${remedy.at}${remedy.build === null ? '' : ` and its build ${remedy.build}`}`;
  }
}
