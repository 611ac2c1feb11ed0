import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonPatchOperation, JsonValue } from '../../src/json/index.js';
import { applyJsonPatch } from '../../src/json/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { formatJsonPointer, parseJsonPointer } from '../../src/json/index.js';
import { thrown } from '../support/thrown.js';

const patch = (document: JsonValue, operations: readonly JsonPatchOperation[]) => applyJsonPatch(document, operations);
const failure = (document: JsonValue, operations: readonly JsonPatchOperation[]) =>
  thrown(() => applyJsonPatch(document, operations));

describe('applyJsonPatch: the examples of RFC 6902 appendix A', () => {
  it.each<[string, JsonValue, JsonPatchOperation[], JsonValue]>([
    [
      'A.1 adding an object member',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux' }],
      { baz: 'qux', foo: 'bar' },
    ],
    [
      'A.2 adding an array element',
      { foo: ['bar', 'baz'] },
      [{ op: 'add', path: '/foo/1', value: 'qux' }],
      { foo: ['bar', 'qux', 'baz'] },
    ],
    ['A.3 removing an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    [
      'A.4 removing an array element',
      { foo: ['bar', 'qux', 'baz'] },
      [{ op: 'remove', path: '/foo/1' }],
      { foo: ['bar', 'baz'] },
    ],
    [
      'A.5 replacing a value',
      { baz: 'qux', foo: 'bar' },
      [{ op: 'replace', path: '/baz', value: 'boo' }],
      { baz: 'boo', foo: 'bar' },
    ],
    [
      'A.6 moving a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    [
      'A.7 moving an array element',
      { foo: ['all', 'grass', 'cows', 'eat'] },
      [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      { foo: ['all', 'cows', 'eat', 'grass'] },
    ],
    [
      'A.8 testing a value: success',
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ],
    [
      'A.10 adding a nested member object',
      { foo: 'bar' },
      [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      { foo: 'bar', child: { grandchild: {} } },
    ],
    ['A.14 ~ escape ordering', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    [
      'A.16 adding an array value',
      { foo: ['bar'] },
      [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      { foo: ['bar', ['abc', 'def']] },
    ],
  ])('%s', (_name, document, operations, expected) => {
    expect(patch(document, operations)).toEqual(expected);
  });

  it('A.11 ignores members of an operation it does not know', () => {
    const operation = { op: 'add', path: '/baz', value: 'qux', xyz: 123 } as unknown as JsonPatchOperation;
    expect(patch({ foo: 'bar' }, [operation])).toEqual({ foo: 'bar', baz: 'qux' });
  });

  it.each<[string, JsonValue, JsonPatchOperation[], RegExp]>([
    [
      'A.9 testing a value: error',
      { baz: 'qux' },
      [{ op: 'test', path: '/baz', value: 'bar' }],
      /operation 0 \(test \/baz\): the value there differs/,
    ],
    [
      'A.12 adding to a nonexistent target',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz/bat', value: 'qux' }],
      /operation 0 \(add \/baz\/bat\): there is no "baz" there/,
    ],
    [
      'A.15 comparing strings and numbers',
      { '/': 9, '~1': 10 },
      [{ op: 'test', path: '/~01', value: '10' }],
      /the value there differs/,
    ],
  ])('%s', (_name, document, operations, message) => {
    const error = failure(document, operations);
    expect(error.code).toBe('INPUT_INVALID');
    expect(error.message).toMatch(message);
  });
});

describe('applyJsonPatch: JSON Pointers (RFC 6901)', () => {
  const document: JsonValue = {
    foo: ['bar', 'baz'],
    '': 0,
    'a/b': 1,
    'c%d': 2,
    'e^f': 3,
    'g|h': 4,
    'i\\j': 5,
    'k"l': 6,
    ' ': 7,
    'm~n': 8,
  };

  it.each<[string, JsonValue]>([
    ['', document],
    ['/foo', ['bar', 'baz']],
    ['/foo/0', 'bar'],
    ['/', 0],
    ['/a~1b', 1],
    ['/c%d', 2],
    ['/e^f', 3],
    ['/g|h', 4],
    ['/i\\j', 5],
    ['/k"l', 6],
    ['/ ', 7],
    ['/m~0n', 8],
  ])('the pointer %j of the RFC 6901 section 5 examples reaches %j', (path, value) => {
    expect(patch(document, [{ op: 'test', path, value }])).toEqual(document);
    expect(thrown(() => patch(document, [{ op: 'test', path, value: 'something else' }])).code).toBe('INPUT_INVALID');
  });

  it('decodes ~1 before ~0, so "~01" is the key "~1", not "/"', () => {
    expect(parseJsonPointer('/~01')).toEqual(['~1']);
    expect(parseJsonPointer('/a~1b/m~0n/')).toEqual(['a/b', 'm~n', '']);
    expect(parseJsonPointer('')).toEqual([]);
    expect(patch({ '~1': 1, '/': 2 }, [{ op: 'replace', path: '/~01', value: 10 }])).toEqual({ '~1': 10, '/': 2 });
  });

  it('writes keys with "/" and "~" escaped, and reads back what it wrote', () => {
    expect(formatJsonPointer(['fields', 'a/b', 'm~n', 0])).toBe('/fields/a~1b/m~0n/0');
    expect(formatJsonPointer([])).toBe('');
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' })), (tokens) => {
        expect(parseJsonPointer(formatJsonPointer(tokens))).toEqual(tokens);
      }),
    );
  });

  it.each(['foo', 'foo/bar', '/a~2b', '/a~', '/~/x'])(
    'refuses the malformed pointer %j, naming the operation',
    (path) => {
      expect(() => parseJsonPointer(path)).toThrow(SyntaxError);
      const error = failure({ foo: 1 }, [
        { op: 'test', path: '', value: { foo: 1 } },
        { op: 'add', path, value: 1 },
      ]);
      expect(error.code).toBe('INPUT_INVALID');
      expect(error.message).toMatch(/^JSON Patch operation 1 \(add /);
    },
  );

  it('refuses a malformed "from" pointer', () => {
    expect(failure({ a: 1 }, [{ op: 'copy', from: 'a', path: '/b' }]).message).toMatch(
      /operation 0 \(copy \/b\).*JSON Pointer/,
    );
  });
});

describe('applyJsonPatch: each operation', () => {
  it('add replaces a member that exists, appends with "-" or at the length, and refuses an index past it', () => {
    expect(patch({ a: 1 }, [{ op: 'add', path: '/a', value: 2 }])).toEqual({ a: 2 });
    expect(patch([1, 2], [{ op: 'add', path: '/2', value: 3 }])).toEqual([1, 2, 3]);
    expect(patch([1, 2], [{ op: 'add', path: '/-', value: 3 }])).toEqual([1, 2, 3]);
    expect(patch([1, 2], [{ op: 'add', path: '/0', value: 0 }])).toEqual([0, 1, 2]);
    expect(failure([1, 2], [{ op: 'add', path: '/3', value: 3 }]).message).toMatch(/index 3 is past the end/);
    expect(failure([1, 2], [{ op: 'add', path: '/01', value: 3 }]).message).toMatch(/"01" is not an array index/);
    expect(failure([1, 2], [{ op: 'add', path: '/-1', value: 3 }]).message).toMatch(/"-1" is not an array index/);
    expect(failure({ a: 'text' }, [{ op: 'add', path: '/a/b', value: 3 }]).message).toMatch(
      /neither an object nor an array/,
    );
  });

  it('replace and remove need the target to exist; "-" names no element to replace or remove', () => {
    expect(failure({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }]).message).toMatch(/no "b" to replace/);
    expect(failure({ a: 1 }, [{ op: 'remove', path: '/b' }]).message).toMatch(/no "b" to remove/);
    expect(failure([1], [{ op: 'replace', path: '/1', value: 2 }]).message).toMatch(/index 1 is past the end/);
    expect(failure([1], [{ op: 'replace', path: '/-', value: 2 }]).code).toBe('INPUT_INVALID');
    expect(failure([1], [{ op: 'remove', path: '/-' }]).code).toBe('INPUT_INVALID');
    expect(failure({ a: [1] }, [{ op: 'replace', path: '/a/length', value: 0 }]).message).toMatch(
      /"length" is not an array index/,
    );
  });

  it('reads only fields the document has, never inherited ones', () => {
    expect(failure({}, [{ op: 'test', path: '/toString', value: null }]).message).toMatch(/no "toString" there/);
    expect(failure({}, [{ op: 'replace', path: '/constructor', value: 1 }]).message).toMatch(
      /no "constructor" to replace/,
    );
    expect(failure({}, [{ op: 'remove', path: '/hasOwnProperty' }]).message).toMatch(/no "hasOwnProperty" to remove/);
    expect(failure([], [{ op: 'copy', from: '/length', path: '/-' }]).code).toBe('INPUT_INVALID');
  });

  it('replaces the whole document with the empty pointer, and refuses to remove it', () => {
    expect(patch({ a: 1 }, [{ op: 'replace', path: '', value: [1] }])).toEqual([1]);
    expect(patch({ a: 1 }, [{ op: 'add', path: '', value: 'x' }])).toEqual('x');
    expect(failure({ a: 1 }, [{ op: 'remove', path: '' }]).message).toMatch(/whole document cannot be removed/);
  });

  it('test compares values, not key order; arrays keep their order', () => {
    expect(patch({ a: { x: 1, y: [1, 2] } }, [{ op: 'test', path: '/a', value: { y: [1, 2], x: 1 } }])).toEqual({
      a: { x: 1, y: [1, 2] },
    });
    expect(failure({ a: [1, 2] }, [{ op: 'test', path: '/a', value: [2, 1] }]).message).toMatch(/differs/);
    expect(failure({ a: { x: 1 } }, [{ op: 'test', path: '/a', value: { x: 1, y: null } }]).message).toMatch(/differs/);
    expect(failure({ a: null }, [{ op: 'test', path: '/a', value: false }]).message).toMatch(/differs/);
  });

  it('move to its own place changes nothing; move into its own child is refused; a key that only starts like it is not a child', () => {
    expect(patch({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a' }])).toEqual({ a: { b: 1 } });
    expect(failure({ a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }]).message).toMatch(
      /cannot move into itself/,
    );
    expect(patch({ a: { b: 1 }, ab: {} }, [{ op: 'move', from: '/a', path: '/ab/x' }])).toEqual({
      ab: { x: { b: 1 } },
    });
    expect(failure({ a: 1 }, [{ op: 'move', from: '/missing', path: '/b' }]).message).toMatch(/no "missing" there/);
  });

  it('copy makes an independent copy, and the operation values are copied in, not shared', () => {
    const value = { deep: [1] };
    const result = patch({ a: { deep: [0] } }, [
      { op: 'copy', from: '/a', path: '/b' },
      { op: 'add', path: '/c', value },
    ]) as { a: { deep: number[] }; b: { deep: number[] }; c: { deep: number[] } };
    expect(result).toEqual({ a: { deep: [0] }, b: { deep: [0] }, c: { deep: [1] } });
    expect(result.b).not.toBe(result.a);
    expect(result.b.deep).not.toBe(result.a.deep);
    expect(result.c).not.toBe(value);
    value.deep.push(2);
    expect(result.c).toEqual({ deep: [1] });
  });

  it('names the failing operation by its position, with the error code the caller asks for', () => {
    const error = thrown(() =>
      applyJsonPatch(
        { a: 1 },
        [
          { op: 'replace', path: '/a', value: 2 },
          { op: 'remove', path: '/b' },
        ],
        'OVERRIDE_INVALID',
      ),
    );
    expect(error.code).toBe('OVERRIDE_INVALID');
    expect(error.message).toBe('JSON Patch operation 1 (remove /b): there is no "b" to remove');
  });
});

describe('applyJsonPatch: atomic and non-mutating', () => {
  it('leaves the document as it was when a later operation fails, and when all apply', () => {
    const document = { fields: { damage_area_cm2: { value: 205, confidence: 0.38 } }, list: [1, 2, 3] };
    const before = structuredClone(document);
    const error = failure(document, [
      { op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 },
      { op: 'remove', path: '/list/0' },
      { op: 'add', path: '/list/-', value: 4 },
      { op: 'test', path: '/fields/damage_area_cm2/confidence', value: 0.97 },
    ]);
    expect(error.message).toMatch(/^JSON Patch operation 3 \(test /);
    expect(document).toEqual(before);
    const result = patch(document, [
      { op: 'replace', path: '/fields/damage_area_cm2/value', value: 2050 },
      { op: 'remove', path: '/list/0' },
    ]);
    expect(result).toEqual({ fields: { damage_area_cm2: { value: 2050, confidence: 0.38 } }, list: [2, 3] });
    expect(document).toEqual(before);
  });

  it('never modifies its input, whatever the operations (property)', () => {
    const key = fc.oneof(
      fc.constantFrom('a', 'b', '0', '1', '-', '__proto__', 'x/y', 'm~n', ''),
      fc.string({ maxLength: 3 }),
    );
    const pointer = fc.array(key, { maxLength: 3 }).map(formatJsonPointer);
    const operation: fc.Arbitrary<JsonPatchOperation> = fc.oneof(
      fc.record({
        op: fc.constantFrom('add' as const, 'replace' as const, 'test' as const),
        path: pointer,
        value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
      }),
      fc.record({ op: fc.constant('remove' as const), path: pointer }),
      fc.record({ op: fc.constantFrom('move' as const, 'copy' as const), path: pointer, from: pointer }),
    );
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>,
        fc.array(operation, { maxLength: 5 }),
        (document, operations) => {
          const before = JSON.stringify(document);
          const operationsBefore = JSON.stringify(operations);
          try {
            applyJsonPatch(document, operations);
          } catch (error) {
            expect(isForkpointError(error) && error.code === 'INPUT_INVALID').toBe(true);
          }
          expect(JSON.stringify(document)).toBe(before);
          expect(JSON.stringify(operations)).toBe(operationsBefore);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('an added member tests equal, and removing it again gives the document back (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>),
        fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('__proto__', 'constructor', 'a/b', '~0', '~1', '')),
        fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
        (document, key, value) => {
          fc.pre(!Object.hasOwn(document, key));
          const path = formatJsonPointer([key]);
          const added = applyJsonPatch(document, [
            { op: 'add', path, value },
            { op: 'test', path, value },
          ]) as Record<string, JsonValue>;
          expect(Object.hasOwn(added, key)).toBe(true);
          expect(JSON.stringify(added[key])).toBe(JSON.stringify(value));
          expect(applyJsonPatch(added, [{ op: 'remove', path }])).toEqual(document);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('applyJsonPatch: `__proto__` is a field like any other', () => {
  it('adds a `__proto__` member as a field of its own, without touching the prototype of the result or of Object', () => {
    const result = patch({ a: 1 }, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(['a', '__proto__']);
    expect(result.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(result)).toBe('{"a":1,"__proto__":{"polluted":true}}');
  });

  it('reads, replaces, tests, copies, moves and removes a `__proto__` field a JSON document holds', () => {
    const document = JSON.parse('{"__proto__":{"x":1},"a":1}') as JsonValue;
    expect(JSON.stringify(patch(document, [{ op: 'replace', path: '/__proto__/x', value: 2 }]))).toBe(
      '{"__proto__":{"x":2},"a":1}',
    );
    expect(JSON.stringify(patch(document, [{ op: 'test', path: '/__proto__', value: { x: 1 } }]))).toBe(
      '{"__proto__":{"x":1},"a":1}',
    );
    expect(failure(document, [{ op: 'test', path: '/__proto__', value: { x: 2 } }]).message).toMatch(/differs/);
    expect(JSON.stringify(patch(document, [{ op: 'copy', from: '/__proto__', path: '/b' }]))).toBe(
      '{"__proto__":{"x":1},"a":1,"b":{"x":1}}',
    );
    expect(JSON.stringify(patch(document, [{ op: 'move', from: '/__proto__', path: '/b' }]))).toBe(
      '{"a":1,"b":{"x":1}}',
    );
    expect(JSON.stringify(patch(document, [{ op: 'remove', path: '/__proto__' }]))).toBe('{"a":1}');
    expect(JSON.stringify(document)).toBe('{"__proto__":{"x":1},"a":1}');
  });

  it('tells a `__proto__` field apart from an empty object in test', () => {
    const holder = { a: JSON.parse('{"__proto__":1}') as JsonValue };
    expect(failure(holder, [{ op: 'test', path: '/a', value: {} }]).message).toMatch(/differs/);
    expect(patch(holder, [{ op: 'test', path: '/a', value: JSON.parse('{"__proto__":1}') as JsonValue }])).toEqual(
      holder,
    );
  });
});
