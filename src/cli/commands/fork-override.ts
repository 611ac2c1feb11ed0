import { readFileSync } from 'node:fs';
import { ForkpointError } from '../../errors/index.js';
import type { ForkOverride } from '../../fork/index.js';
import { parseForkOverride } from '../../fork/index.js';
import { parseJsonInput } from '../../json/index.js';

/** The flags that each give a fork its one change, as parsed. */
export interface OverrideValues {
  readonly toolResult?: string | undefined;
  readonly toolMerge?: string | undefined;
  readonly toolPatch?: string | undefined;
  readonly toolError?: string | undefined;
  readonly modelResponse?: string | undefined;
  readonly systemPrompt?: string | undefined;
  readonly systemPromptFile?: string | undefined;
  readonly model?: string | undefined;
  readonly approval?: 'approved' | 'rejected' | undefined;
  /** The reviewer's reason, with `approval` only. */
  readonly reason?: string | undefined;
  readonly override?: string | undefined;
}

const FLAGS: readonly (readonly [Exclude<keyof OverrideValues, 'reason'>, string])[] = [
  ['toolResult', 'tool-result'],
  ['toolMerge', 'tool-merge'],
  ['toolPatch', 'tool-patch'],
  ['toolError', 'tool-error'],
  ['modelResponse', 'model-response'],
  ['systemPrompt', 'system-prompt'],
  ['systemPromptFile', 'system-prompt-file'],
  ['model', 'model'],
  ['approval', 'approval'],
  ['override', 'override'],
];

/** The one override the flags give, checked against its schema before the store is opened. */
export function overrideFrom(values: OverrideValues): ForkOverride {
  const given = FLAGS.filter(([key]) => values[key] !== undefined);
  const [only, second] = given;
  if (only === undefined || second !== undefined) {
    throw new ForkpointError(
      'USAGE',
      `fork changes exactly one thing: give one of --${FLAGS.map(([, flag]) => flag).join(', --')}${given.length > 1 ? ` (got --${given.map(([, flag]) => flag).join(', --')})` : ''}`,
    );
  }
  const [key, flag] = only;
  if (values.reason !== undefined && key !== 'approval')
    throw new ForkpointError('USAGE', "--reason goes with --approval: it is the reviewer's reason for the answer");
  const value = values[key] ?? '';
  const json = () => parseJsonInput(value, `--${flag}`, 'OVERRIDE_INVALID');
  switch (key) {
    case 'toolResult':
      return parseForkOverride({ kind: 'tool-result', output: json() });
    case 'toolMerge':
      return parseForkOverride({ kind: 'tool-merge', patch: json() });
    case 'toolPatch':
      return parseForkOverride({ kind: 'tool-patch', operations: json() });
    case 'toolError':
      return parseForkOverride({ kind: 'tool-error', message: value });
    case 'modelResponse':
      return parseForkOverride({ kind: 'model-response', response: json() });
    case 'systemPrompt':
      return parseForkOverride({ kind: 'system-prompt', system: value });
    case 'systemPromptFile':
      return parseForkOverride({ kind: 'system-prompt', system: readPrompt(value), file: value });
    case 'model':
      return parseForkOverride({ kind: 'model', model: value });
    case 'approval':
      return parseForkOverride({
        kind: 'approval',
        approved: value === 'approved',
        ...(values.reason === undefined ? {} : { note: values.reason }),
      });
    case 'override':
      return parseForkOverride(json());
  }
}

function readPrompt(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ForkpointError('USAGE', `cannot read the system prompt file ${file} (${(error as Error).message})`, {
      cause: error,
      details: { path: file },
    });
  }
}
