import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ForkOverride } from '../../src/fork/index.js';
import { ForkpointError, isForkpointError } from '../../src/errors/index.js';
import { parseForkOverride } from '../../src/fork/index.js';
import { thrown } from '../support/thrown.js';

// ---------------------------------------------------------------------------
// The oracle: the override schema written out again from fork-override.ts's
// type, without calling anything in src.
// ---------------------------------------------------------------------------

const KINDS = [
  'tool-result',
  'tool-merge',
  'tool-patch',
  'tool-error',
  'model-response',
  'model-patch',
  'system-prompt',
  'model',
] as const;
type Kind = (typeof KINDS)[number];
type FieldRule = 'json' | 'operations' | 'via' | 'nonblank' | 'string' | 'response';

const SCHEMA: Record<Kind, { required: Record<string, FieldRule>; optional: Record<string, FieldRule> }> = {
  'tool-result': { required: { output: 'json' }, optional: {} },
  'tool-merge': { required: { patch: 'json' }, optional: {} },
  'tool-patch': { required: { operations: 'operations' }, optional: { via: 'via' } },
  'tool-error': { required: { message: 'nonblank' }, optional: {} },
  'model-response': { required: { response: 'response' }, optional: {} },
  'model-patch': { required: { operations: 'operations' }, optional: { via: 'via' } },
  'system-prompt': { required: { system: 'string' }, optional: { file: 'string' } },
  model: { required: { model: 'nonblank' }, optional: {} },
};
const MAX_DEPTH = 200;

function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Plain JSON: finite numbers, no undefined/holes, plain objects and arrays only, no cycles, bounded depth. */
function isJson(value: unknown, depth = 0, ancestors = new Set<object>()): boolean {
  if (depth > MAX_DEPTH) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (ancestors.has(value)) return false;
  if (!Array.isArray(value) && !isPlain(value)) return false;
  ancestors.add(value);
  const children: unknown[] = Array.isArray(value)
    ? Array.from({ length: value.length }, (_, i) => (value as unknown[])[i])
    : Object.keys(value).map((key) => value[key]);
  const ok = children.every((child) => isJson(child, depth + 1, ancestors));
  ancestors.delete(value);
  return ok;
}

const isPointer = (value: unknown): boolean =>
  typeof value === 'string' && (value === '' || (value.startsWith('/') && !/~([^01]|$)/.test(value)));

function isOperation(value: unknown): boolean {
  if (!isPlain(value)) return false;
  const { op } = value;
  if (typeof op !== 'string' || !['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(op)) return false;
  const fields = op === 'remove' ? ['path'] : op === 'move' || op === 'copy' ? ['path', 'from'] : ['path', 'value'];
  if (Object.keys(value).some((key) => key !== 'op' && !fields.includes(key))) return false;
  if (!fields.every((field) => Object.hasOwn(value, field))) return false;
  if (!isPointer(value.path)) return false;
  if (fields.includes('from') && !isPointer(value.from)) return false;
  return !fields.includes('value') || isJson(value.value);
}

const isObjectList = (value: unknown): boolean => Array.isArray(value) && value.every(isPlain);

function isPart(value: unknown): boolean {
  if (!isPlain(value)) return false;
  if (value.type === 'text')
    return typeof value.text === 'string' && (value.citations === undefined || isObjectList(value.citations));
  if (value.type === 'redacted_thinking') return typeof value.data === 'string';
  if (value.type === 'provider') return typeof value.provider === 'string' && isPlain(value.block);
  if (value.type === 'thinking') return typeof value.thinking === 'string' && typeof value.signature === 'string';
  if (value.type === 'tool_use')
    return typeof value.id === 'string' && typeof value.name === 'string' && isPlain(value.input);
  return false; // tool_result parts belong to user turns, never to a model response
}

const STOP_REASONS = [
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'pause_turn',
  'refusal',
  'content_filter',
  'context_window_exceeded',
  'other',
];
const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 0;

function isUsage(usage: unknown): boolean {
  if (!isPlain(usage)) return false;
  const optional = ['cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'];
  return (
    isCount(usage.inputTokens) &&
    isCount(usage.outputTokens) &&
    optional.every((name) => usage[name] === undefined || isCount(usage[name])) &&
    (usage.provider === undefined || isPlain(usage.provider))
  );
}

function isResponse(value: unknown): boolean {
  if (!isJson(value) || !isPlain(value)) return false;
  return (
    typeof value.id === 'string' &&
    typeof value.model === 'string' &&
    Array.isArray(value.content) &&
    value.content.every(isPart) &&
    STOP_REASONS.includes(value.stopReason as string) &&
    (value.providerStopReason === undefined || typeof value.providerStopReason === 'string') &&
    isUsage(value.usage)
  );
}

function fieldHolds(rule: FieldRule, value: unknown): boolean {
  switch (rule) {
    case 'json':
      return isJson(value);
    case 'operations':
      return (
        Array.isArray(value) &&
        value.length > 0 &&
        Array.from({ length: value.length }, (_, i) => (value as unknown[])[i]).every(isOperation)
      );
    case 'via':
      return value === 'edit';
    case 'nonblank':
      return typeof value === 'string' && value.trim() !== '';
    case 'string':
      return typeof value === 'string';
    case 'response':
      return isResponse(value);
  }
}

/** True exactly when `value` is an override the schema accepts. */
function oracle(value: unknown): boolean {
  if (!isPlain(value) || !Object.hasOwn(value, 'kind')) return false;
  const { kind } = value;
  if (typeof kind !== 'string' || !(KINDS as readonly string[]).includes(kind)) return false;
  const { required, optional } = SCHEMA[kind as Kind];
  const rules: Record<string, FieldRule> = { ...required, ...optional };
  if (Object.keys(value).some((key) => key !== 'kind' && !Object.hasOwn(rules, key))) return false;
  if (Object.keys(required).some((field) => !Object.hasOwn(value, field))) return false;
  return Object.entries(rules).every(([field, rule]) => !Object.hasOwn(value, field) || fieldHolds(rule, value[field]));
}

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

const ABSENT: unique symbol = Symbol('absent');
type Entry = readonly [string, unknown];

class Claim {
  constructor(
    readonly kind = 'model',
    readonly model = 'x',
  ) {}
}

/** An object with these own keys (a `__proto__` key too, as JSON.parse makes it) and this prototype. */
function objectOf(entries: readonly Entry[], prototype: 'object' | 'null' | 'class' = 'object'): object {
  const target: object = prototype === 'null' ? Object.create(null) : prototype === 'class' ? new Claim() : {};
  for (const [key, value] of entries) {
    if (value !== ABSENT)
      Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  }
  return target;
}

const json = fc.jsonValue({ maxDepth: 3 });
const protoKeyed = json.map((value) => JSON.parse(`{"__proto__":${JSON.stringify(value ?? null)},"a":1}`) as unknown);
const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { n: value };
  return value;
};
const cyclic = fc.constant(null).map(() => {
  const value: Record<string, unknown> = { a: 1 };
  value.self = { back: value };
  return value;
});
const shared = fc.constant(null).map(() => {
  const leaf = { n: 1 };
  return { a: leaf, b: [leaf, leaf] };
});
const sparse = fc.sparseArray(json, { maxLength: 4, noTrailingHole: false });
const notJsonLeaf = fc.oneof(
  fc.constantFrom<unknown>(undefined, NaN, Infinity, -Infinity, 10n, Symbol('s')),
  fc.constant(null).map(() => () => 1),
  fc.date(),
  fc.constant(null).map(() => new Map([['a', 1]])),
  fc.constant(null).map(() => new Set([1])),
  fc.constant(null).map(() => new Claim()),
  fc.constant(null).map(() => new Uint8Array(2)),
  fc.constant(null).map(() => /x/),
);

/** Values of any kind: JSON, JSON with traps, and values that have no JSON form, nested or not. */
const wild: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: json },
  { weight: 3, arbitrary: notJsonLeaf },
  { weight: 1, arbitrary: notJsonLeaf.map((leaf) => ({ deep: [{ leaf }] })) },
  { weight: 1, arbitrary: notJsonLeaf.map((leaf) => [[1, [leaf]]]) },
  { weight: 1, arbitrary: protoKeyed },
  { weight: 1, arbitrary: json.map((value) => objectOf([['v', value]], 'null')) },
  { weight: 1, arbitrary: sparse },
  { weight: 1, arbitrary: cyclic },
  { weight: 1, arbitrary: shared },
  {
    weight: 1,
    arbitrary: fc.integer({ min: MAX_DEPTH - 2, max: MAX_DEPTH + 2 }).map((depth) => nested(depth, 'leaf')),
  },
  {
    weight: 1,
    arbitrary: fc.constant(null).map(() =>
      objectOf([
        ['constructor', 1],
        ['hasOwnProperty', 2],
      ]),
    ),
  },
  { weight: 1, arbitrary: fc.constant(null).map(() => ({ [Symbol('hidden')]: () => 1, visible: 1 })) },
);

const tokenArb = fc.oneof(
  fc.constantFrom('fields', 'value', '0', '-', '__proto__', 'a~1b', 'm~0n', ''),
  fc.string({ maxLength: 4 }),
);
const pointerArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(tokenArb, { maxLength: 3 }).map((tokens) => tokens.map((token) => `/${token}`).join('')),
  },
  { weight: 1, arbitrary: fc.constantFrom('fields', 'a/b', '/a~2b', '/a~', '/~/x', '#/a') },
  { weight: 1, arbitrary: wild },
);
const opName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test') },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('delete', 'ADD', '', 7, undefined) },
);
/** What a field of an operation holds: usually what it should, sometimes not, sometimes nothing. */
const maybe = (good: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 12, arbitrary: good },
    { weight: 1, arbitrary: fc.constant(ABSENT) },
    { weight: 1, arbitrary: wild },
  );
const operationArb: fc.Arbitrary<unknown> = fc
  .record({
    op: opName,
    path: maybe(pointerArb),
    from: maybe(pointerArb),
    value: maybe(json),
    extra: fc.oneof(
      { weight: 10, arbitrary: fc.constant<Entry[]>([]) },
      {
        weight: 1,
        arbitrary: fc.array(fc.tuple(fc.constantFrom('from', 'value', 'xyz', '__proto__', 'Op'), wild), {
          maxLength: 2,
        }),
      },
    ),
    prototype: fc.constantFrom<'object' | 'null' | 'class'>(
      'object',
      'object',
      'object',
      'object',
      'object',
      'object',
      'null',
      'class',
    ),
  })
  .map(({ op, path, from, value, extra, prototype }) => {
    const fields: Entry[] = [
      ['op', op],
      ['path', path],
    ];
    if (op === 'move' || op === 'copy') fields.push(['from', from]);
    else if (op !== 'remove') fields.push(['value', value]);
    return objectOf([...fields, ...extra], prototype);
  });
const operationsArb = fc.oneof(
  { weight: 10, arbitrary: fc.array(operationArb, { minLength: 1, maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fc.sparseArray(operationArb, { minNumElements: 1, maxLength: 3 }) },
  { weight: 1, arbitrary: operationArb },
);

const partArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ type: fc.constant('text'), text: fc.string() }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('thinking'), thinking: fc.string(), signature: fc.string() }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('redacted_thinking'), data: maybe(fc.string()) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('provider'),
      provider: fc.constant('anthropic'),
      block: maybe(fc.dictionary(fc.string(), json, { maxKeys: 2 })),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('text'),
      text: fc.string(),
      citations: maybe(fc.array(fc.dictionary(fc.string(), json, { maxKeys: 2 }), { maxLength: 2 })),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('tool_use'),
      id: fc.string(),
      name: fc.constantFrom('echo', 'fetch_policy'),
      input: fc.dictionary(fc.string(), json, { maxKeys: 2 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('tool_result'),
      toolUseId: fc.string(),
      content: fc.string(),
      isError: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constantFrom('image', 'tool_use', 'thinking', 'text'), text: wild, input: wild }),
  },
  { weight: 1, arbitrary: wild },
);
const responseArb: fc.Arbitrary<unknown> = fc
  .record({
    id: maybe(fc.string()),
    model: maybe(fc.constantFrom('test-model', 'claude-opus-5')),
    content: maybe(fc.array(partArb, { maxLength: 3 })),
    stopReason: maybe(fc.constantFrom<unknown>('end_turn', 'tool_use', 'max_tokens', 'pause_turn', 'refusal', 'stop')),
    usage: maybe(
      fc
        .record({ inputTokens: maybe(fc.nat()), outputTokens: maybe(fc.nat()) })
        .map((usage) => objectOf(Object.entries(usage))),
    ),
    extra: fc.oneof(
      { weight: 6, arbitrary: fc.constant<Entry[]>([]) },
      {
        weight: 1,
        arbitrary: fc.array(fc.tuple(fc.constantFrom('stop_reason', 'role', '__proto__'), wild), { maxLength: 1 }),
      },
    ),
  })
  .map(({ extra, ...fields }) => objectOf([...Object.entries(fields), ...extra]));

const stringArb = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 2, arbitrary: fc.constantFrom('', ' ', '\n\t', '\u00a0\ufeff', 'claude-sonnet-5') },
);
const GOOD: Record<FieldRule, fc.Arbitrary<unknown>> = {
  json: fc.oneof(
    { weight: 6, arbitrary: json },
    { weight: 1, arbitrary: protoKeyed },
    { weight: 1, arbitrary: shared },
    { weight: 1, arbitrary: fc.integer({ min: MAX_DEPTH - 1, max: MAX_DEPTH + 1 }).map((depth) => nested(depth, 1)) },
  ),
  operations: operationsArb,
  via: fc.constantFrom<unknown>('edit', 'edit', 'edit', 'Edit', 'manual', ''),
  nonblank: stringArb,
  string: stringArb,
  response: responseArb,
};

const kindArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 16, arbitrary: fc.constantFrom(...KINDS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'sytem-prompt',
      'tool_result',
      'Model',
      'tool-results',
      'model-responce',
      'tool',
      'toString',
      '__proto__',
      'constructor',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(42, null, ['model'], { kind: 'model' }) },
  { weight: 1, arbitrary: fc.constant(ABSENT) },
);
const extraKeyArb = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'modelId',
    'prompt',
    'Output',
    'patches',
    'operation',
    'via',
    'file',
    'message',
    'output',
    'system',
    'response',
  ),
  fc.string({ maxLength: 8 }),
);

/** Override-shaped objects: a kind (valid, misspelt or junk), fields for some kind (present, missing or wrong), sometimes extra keys. */
const structuredArb: fc.Arbitrary<unknown> = fc
  .record({
    kind: kindArb,
    fieldsOf: fc.constantFrom(...KINDS),
    prototype: fc.constantFrom<'object' | 'null' | 'class'>(
      'object',
      'object',
      'object',
      'object',
      'object',
      'object',
      'object',
      'object',
      'null',
      'class',
    ),
  })
  .chain(({ kind, fieldsOf, prototype }) => {
    const { required, optional } =
      SCHEMA[typeof kind === 'string' && (KINDS as readonly string[]).includes(kind) ? (kind as Kind) : fieldsOf];
    const fieldArbs = [
      ...Object.entries(required).map(([field, rule]) =>
        fc
          .oneof(
            { weight: 10, arbitrary: GOOD[rule] },
            { weight: 1, arbitrary: fc.constant(ABSENT) },
            { weight: 1, arbitrary: wild },
          )
          .map((value): Entry => [field, value]),
      ),
      ...Object.entries(optional).map(([field, rule]) =>
        fc
          .oneof(
            { weight: 2, arbitrary: GOOD[rule] },
            { weight: 3, arbitrary: fc.constant(ABSENT) },
            { weight: 1, arbitrary: wild },
          )
          .map((value): Entry => [field, value]),
      ),
    ];
    const extras = fc.oneof(
      { weight: 5, arbitrary: fc.constant<Entry[]>([]) },
      { weight: 1, arbitrary: fc.array(fc.tuple(extraKeyArb, wild), { minLength: 1, maxLength: 2 }) },
    );
    return fc
      .tuple(fc.tuple(...fieldArbs), extras)
      .map(([fields, extra]) => objectOf([['kind', kind], ...fields, ...extra], prototype));
  });

/** Everything a JavaScript caller might pass as an override. */
const anyOverride = fc.oneof({ weight: 8, arbitrary: structuredArb }, { weight: 1, arbitrary: wild });

// ---------------------------------------------------------------------------

const RESPONSE = {
  id: 'msg_1',
  model: 'claude-opus-5',
  content: [
    { type: 'thinking', thinking: 'Policy first.', signature: 'sig' },
    { type: 'text', text: 'Checking the policy first.' },
    { type: 'tool_use', id: 'toolu_1', name: 'fetch_policy', input: { policy_id: 'POL-5531' } },
  ],
  stopReason: 'tool_use',
  usage: { inputTokens: 10, outputTokens: 5 },
} as const;

const invalidMessage = (value: unknown): string => {
  const error = thrown(() => parseForkOverride(value));
  expect(error.code).toBe('OVERRIDE_INVALID');
  return error.message;
};

describe('parseForkOverride: what it accepts', () => {
  it.each<ForkOverride>([
    { kind: 'tool-result', output: { fields: { damage_area_cm2: { value: 2050 } } } },
    { kind: 'tool-result', output: null },
    { kind: 'tool-merge', patch: { fields: { damage_area_cm2: { value: 2050 } } } },
    { kind: 'tool-patch', operations: [{ op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 }] },
    {
      kind: 'tool-patch',
      operations: [
        { op: 'move', from: '/a', path: '/b' },
        { op: 'remove', path: '/c' },
        { op: 'test', path: '', value: {} },
      ],
      via: 'edit',
    },
    { kind: 'tool-error', message: 'OCR service timed out' },
    { kind: 'model-response', response: RESPONSE },
    { kind: 'model-patch', operations: [{ op: 'copy', from: '/content/0', path: '/content/-' }] },
    { kind: 'system-prompt', system: 'Refer low-confidence readings.' },
    { kind: 'system-prompt', system: '', file: 'prompt.txt' },
    { kind: 'model', model: 'claude-sonnet-5' },
  ])('%j', (override) => {
    expect(parseForkOverride(override)).toEqual(override);
    expect(oracle(override)).toBe(true);
  });

  it('accepts an override read from JSON, and one made with a null prototype', () => {
    expect(parseForkOverride(JSON.parse('{"kind":"tool-error","message":"timed out"}'))).toEqual({
      kind: 'tool-error',
      message: 'timed out',
    });
    expect(
      parseForkOverride(
        objectOf(
          [
            ['kind', 'model'],
            ['model', 'claude-sonnet-5'],
          ],
          'null',
        ),
      ),
    ).toEqual({ kind: 'model', model: 'claude-sonnet-5' });
  });
});

describe('parseForkOverride: what it refuses, naming the field', () => {
  it.each<[string, unknown, RegExp]>([
    [
      'a misspelt model field',
      { kind: 'model', modelId: 'x' },
      /a model override has no field "modelId" \(did you mean "model"\?\); its fields are model/,
    ],
    [
      'a system prompt under another name',
      { kind: 'system-prompt', prompt: 'Refer it.' },
      /a system-prompt override has no field "prompt"; its fields are system, file/,
    ],
    [
      'a system prompt that is not a string',
      { kind: 'system-prompt', system: 42 },
      /override field system-prompt\.system must be a string, got 42/,
    ],
    [
      'a misspelt kind',
      { kind: 'sytem-prompt', system: 'Refer it.' },
      /unknown override kind "sytem-prompt" \(did you mean "system-prompt"\?\); the kinds are tool-result, /,
    ],
    ['a kind far from any', { kind: 'rewrite', system: 'x' }, /^unknown override kind "rewrite"; the kinds are/],
    ['no kind', { output: {} }, /unknown override kind nothing/],
    ['a kind that is not a string', { kind: 7 }, /unknown override kind 7/],
    ['an inherited name for a kind', { kind: 'toString' }, /unknown override kind "toString"/],
    ['a missing field', { kind: 'tool-result' }, /a tool-result override needs field "output"/],
    ['an extra field', { kind: 'tool-error', message: 'x', output: {} }, /a tool-error override has no field "output"/],
    ['an empty error message', { kind: 'tool-error', message: '  ' }, /tool-error\.message must not be empty/],
    ['an empty model id', { kind: 'model', model: '' }, /model\.model must not be empty/],
    [
      'a file that is not a string',
      { kind: 'system-prompt', system: 'x', file: 1 },
      /system-prompt\.file must be a string/,
    ],
    [
      'a tool result holding undefined',
      { kind: 'tool-result', output: { a: undefined } },
      /tool-result\.output is not plain JSON at \$\.a: undefined/,
    ],
    [
      'a tool result holding a Date',
      { kind: 'tool-result', output: [new Date(0)] },
      /tool-result\.output is not plain JSON at \$\[0\]: a Date is not a plain object/,
    ],
    [
      'a merge patch holding NaN',
      { kind: 'tool-merge', patch: { a: NaN } },
      /tool-merge\.patch is not plain JSON at \$\.a: NaN/,
    ],
    [
      'a merge patch holding a function',
      { kind: 'tool-merge', patch: { f: () => 1 } },
      /tool-merge\.patch is not plain JSON at \$\.f: a function/,
    ],
    [
      'patch operations that are not a list',
      { kind: 'tool-patch', operations: { op: 'replace', path: '/a', value: 1 } },
      /tool-patch\.operations must be a non-empty list of JSON Patch operations/,
    ],
    [
      'an empty list of patch operations',
      { kind: 'model-patch', operations: [] },
      /model-patch\.operations must be a non-empty list/,
    ],
    [
      'an operation that RFC 6902 does not define',
      { kind: 'tool-patch', operations: [{ op: 'delete', path: '/a' }] },
      /tool-patch\.operations\[0\]\.op must be one of add, remove, replace, move, copy, test, got "delete"/,
    ],
    [
      'an operation without its value',
      {
        kind: 'tool-patch',
        operations: [
          { op: 'add', path: '/a', value: 1 },
          { op: 'replace', path: '/a' },
        ],
      },
      /operations\[1\] \(replace\) needs field "value"/,
    ],
    [
      'a move without from',
      { kind: 'tool-patch', operations: [{ op: 'move', path: '/a' }] },
      /operations\[0\] \(move\) needs field "from"/,
    ],
    [
      'a remove with a value',
      { kind: 'tool-patch', operations: [{ op: 'remove', path: '/a', value: 1 }] },
      /operations\[0\] \(remove\) has no field "value"; it takes op, path/,
    ],
    [
      'a path that is not a JSON Pointer',
      { kind: 'tool-patch', operations: [{ op: 'remove', path: 'fields/a' }] },
      /operations\[0\]\.path: "fields\/a" is not a JSON Pointer/,
    ],
    [
      'a from with a bad escape',
      { kind: 'tool-patch', operations: [{ op: 'copy', from: '/a~2', path: '/b' }] },
      /operations\[0\]\.from: .*"~" not followed by 0 or 1/,
    ],
    [
      'an operation value holding undefined',
      { kind: 'tool-patch', operations: [{ op: 'add', path: '/a', value: [undefined] }] },
      /operations\[0\]\.value is not plain JSON/,
    ],
    [
      'a via that no recipe wrote',
      { kind: 'tool-patch', operations: [{ op: 'remove', path: '/a' }], via: 'manual' },
      /tool-patch\.via can only be "edit"/,
    ],
    [
      'a model response without usage',
      { kind: 'model-response', response: { ...RESPONSE, usage: undefined } },
      /model-response\.response is not plain JSON/,
    ],
    [
      'a model response with another stop reason',
      { kind: 'model-response', response: { ...RESPONSE, stopReason: 'stop' } },
      /model-response\.response must be a model response/,
    ],
    [
      'a model response holding a tool result',
      {
        kind: 'model-response',
        response: { ...RESPONSE, content: [{ type: 'tool_result', toolUseId: 't', content: 'x', isError: false }] },
      },
      /cannot hold tool_result parts/,
    ],
  ])('%s', (_name, value, message) => {
    expect(invalidMessage(value)).toMatch(message);
    expect(oracle(value)).toBe(false);
  });

  it.each<[string, unknown]>([
    ['nothing', undefined],
    ['null', null],
    ['a string', '{"kind":"model","model":"x"}'],
    ['an array', [{ kind: 'model', model: 'x' }]],
    ['a Date', new Date(0)],
    ['a Map', new Map([['kind', 'model']])],
    ['a class instance with the right fields', new Claim('model', 'x')],
    ['an object inheriting its kind', Object.create({ kind: 'model', model: 'x' })],
    ['a function', () => ({ kind: 'model', model: 'x' })],
  ])('refuses %s as an override', (_name, value) => {
    expect(invalidMessage(value)).toMatch(/an override must be an object with a "kind"/);
  });

  it('refuses a `__proto__` or `constructor` key as an unknown field, rather than taking it for a prototype', () => {
    expect(invalidMessage(JSON.parse('{"kind":"model","model":"x","__proto__":{"model":"y"}}'))).toMatch(
      /has no field "__proto__"/,
    );
    expect(invalidMessage({ kind: 'model', model: 'x', constructor: 'y' })).toMatch(/has no field "constructor"/);
    expect(
      invalidMessage({ kind: 'tool-patch', operations: [JSON.parse('{"op":"remove","path":"/a","__proto__":{}}')] }),
    ).toMatch(/has no field "__proto__"/);
  });

  it('refuses values that cannot be JSON anywhere they nest: a cycle, a BigInt, a Symbol, depth past the limit', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = [cycle];
    expect(invalidMessage({ kind: 'tool-result', output: cycle })).toMatch(/contains itself/);
    expect(invalidMessage({ kind: 'tool-result', output: { n: 1n } })).toMatch(/BigInt/);
    expect(invalidMessage({ kind: 'tool-merge', patch: [Symbol('s')] })).toMatch(/symbol/);
    expect(invalidMessage({ kind: 'tool-result', output: nested(MAX_DEPTH + 1, 1) })).toMatch(/nested deeper than 200/);
    expect(parseForkOverride({ kind: 'tool-result', output: nested(MAX_DEPTH, 1) }).kind).toBe('tool-result');
  });

  it('refuses a list of patch operations with a hole in it: a hole is no operation, and it is stored as null', () => {
    const operations: unknown[] = [{ op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 }];
    operations.length = 2;
    expect(JSON.stringify(operations)).toBe(
      '[{"op":"replace","path":"/fields/damage_area_cm2/value","value":2050},null]',
    );
    expect(invalidMessage({ kind: 'tool-patch', operations })).toMatch(/operations\[1\]/);
    expect(invalidMessage({ kind: 'model-patch', operations: new Array(1) })).toMatch(/operations/);
  });
});

describe('parseForkOverride (property)', () => {
  it('throws OVERRIDE_INVALID exactly when the schema oracle says the value is invalid, and never throws anything else', () => {
    let valid = 0;
    let invalid = 0;
    fc.assert(
      fc.property(anyOverride, (value) => {
        const expected = oracle(value);
        let error: unknown;
        let parsed: ForkOverride | undefined;
        try {
          parsed = parseForkOverride(value);
        } catch (caught) {
          error = caught;
        }
        if (error === undefined) {
          valid++;
          expect(expected, 'parseForkOverride accepted a value the oracle calls invalid').toBe(true);
          expect(parsed).toEqual(value);
        } else {
          invalid++;
          expect(error).toBeInstanceOf(ForkpointError);
          expect(isForkpointError(error) ? error.code : error).toBe('OVERRIDE_INVALID');
          expect(
            expected,
            `parseForkOverride refused a value the oracle calls valid: ${(error as Error).message}`,
          ).toBe(false);
        }
      }),
      { numRuns: 4000 },
    );
    // The generators reach both sides often enough for the property to mean something.
    expect(valid).toBeGreaterThan(400);
    expect(invalid).toBeGreaterThan(400);
  });
});
