import { describe, expect, it } from 'vitest';
import { canonicalOfAiSdkCall } from '../../../src/providers/ai-sdk/ai-sdk-canonical.js';
import { at, FIXTURE_MODEL, fixtureCall } from './canonical-call-fixture.js';
import { refusalOf } from './canonical-support.js';

type Call = Record<string, unknown>;
const changed = (change: (call: Call) => void): Call => {
  const call = fixtureCall();
  change(call);
  return call;
};
const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { next: nested(depth - 1) });

// Each call below holds something the canonical request cannot say, or that is not a call the specification
// types: [what, the call, the field the refusal must name].
const UNMAPPABLE: readonly [string, Call, string][] = [
  ['a prompt that is not an array', changed((call) => (call.prompt = 'hello')), 'prompt'],
  [
    'a role the specification has not',
    changed((call) => (at(call, ['prompt', 1]).role = 'developer')),
    'prompt[1].role',
  ],
  [
    'a part type the specification has not',
    changed((call) => (at(call, ['prompt', 1, 'content', 0]).type = 'image')),
    'prompt[1].content[0].type',
  ],
  [
    'a tool call in a user message',
    changed(
      (call) =>
        (at(call, ['prompt', 1]).content = [{ type: 'tool-call', toolCallId: 't', toolName: 'lookup', input: {} }]),
    ),
    'prompt[1].content[0].type',
  ],
  [
    'text in a tool message',
    changed((call) => (at(call, ['prompt', 3]).content = [{ type: 'text', text: 'x' }])),
    'prompt[3].content[0].type',
  ],
  [
    'a part with no type',
    changed((call) => (at(call, ['prompt', 4]).content = [{ text: 'x' }])),
    'prompt[4].content[0].type',
  ],
  [
    'a system message after the first',
    changed((call) => (call.prompt as unknown[]).splice(2, 0, { role: 'system', content: 'Also this.' })),
    'prompt[2]',
  ],
  ['an empty system message', changed((call) => (at(call, ['prompt', 0]).content = '')), 'prompt[0].content'],
  [
    'a message with options of its own',
    changed((call) => (at(call, ['prompt', 1]).providerOptions = { openai: { name: 'alice' } })),
    'prompt[1].providerOptions',
  ],
  [
    'a message field the specification has not',
    changed((call) => (at(call, ['prompt', 1]).name = 'alice')),
    'prompt[1].name',
  ],
  ['content that is not an array', changed((call) => (at(call, ['prompt', 1]).content = 'hello')), 'prompt[1].content'],
  [
    'text that is not a string',
    changed((call) => (at(call, ['prompt', 1, 'content', 0]).text = 3)),
    'prompt[1].content[0].text',
  ],
  [
    'a tool call with no id',
    changed((call) => delete at(call, ['prompt', 2, 'content', 2]).toolCallId),
    'prompt[2].content[2].toolCallId',
  ],
  [
    'a tool result with no output type',
    changed((call) => (at(call, ['prompt', 3, 'content', 0]).output = { value: 'v' })),
    'prompt[3].content[0].output',
  ],
  [
    'a function in a part',
    changed((call) => (at(call, ['prompt', 2, 'content', 2]).input = { key: () => 'a' })),
    'prompt[2].content[2].input.key',
  ],
  ['a temperature that is not a number', changed((call) => (call.temperature = 'warm')), 'temperature'],
  ['a temperature that is NaN', changed((call) => (call.temperature = Number.NaN)), 'temperature'],
  ['maxOutputTokens of 0', changed((call) => (call.maxOutputTokens = 0)), 'maxOutputTokens'],
  ['maxOutputTokens not whole', changed((call) => (call.maxOutputTokens = 10.5)), 'maxOutputTokens'],
  ['stop sequences that are not strings', changed((call) => (call.stopSequences = [1])), 'stopSequences'],
  ['tools that are not an array', changed((call) => (call.tools = { lookup: {} })), 'tools'],
  ['a tool type the specification has not', changed((call) => (at(call, ['tools', 0]).type = 'mcp')), 'tools[0].type'],
  ['a function tool with no name', changed((call) => delete at(call, ['tools', 0]).name), 'tools[0].name'],
  [
    'a function tool with no schema',
    changed((call) => delete at(call, ['tools', 0]).inputSchema),
    'tools[0].inputSchema',
  ],
  [
    'a provider tool with no id',
    changed((call) => (call.tools = [{ type: 'provider', name: 'web', args: {} }])),
    'tools[0].id',
  ],
  ['a tool choice that is not an object', changed((call) => (call.toolChoice = 'auto')), 'toolChoice'],
  ['headers that are not an object', changed((call) => (call.headers = 'x: y')), 'headers'],
  ['a header value that is not a string', changed((call) => (call.headers = { 'x-depth': 3 })), 'headers.x-depth'],
  ['a header given twice', changed((call) => (call.headers = { 'x-flag': 'a', 'X-Flag': 'b' })), 'headers.X-Flag'],
  ['a Date option', changed((call) => (call.seed = new Date(0))), 'seed'],
  [
    'an undefined inside an array',
    changed((call) => (call.providerOptions = { acme: { list: [undefined] } })),
    'providerOptions.acme.list[0]',
  ],
  ['nesting past the bound', changed((call) => (call.providerOptions = { acme: nested(250) })), 'providerOptions.acme'],
];

describe('canonicalOfAiSdkCall: what it cannot map, it refuses', () => {
  it.each(UNMAPPABLE)('refuses %s with PROVIDER_UNMAPPED, naming the option', (_what, call, field) => {
    const error = refusalOf(() => canonicalOfAiSdkCall(call, FIXTURE_MODEL));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details.field?.startsWith(field)).toBe(true);
    expect(error.message).toContain(`the AI SDK call's ${error.details.field ?? ''} cannot be mapped`);
    // One line, and it says what to do.
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(/; \S/);
  });

  it('refuses call options that are not an object', () => {
    for (const options of [null, 'prompt', [], 3]) {
      const error = refusalOf(() => canonicalOfAiSdkCall(options, FIXTURE_MODEL));
      expect(error.code).toBe('PROVIDER_UNMAPPED');
      expect(error.message).toContain("the AI SDK call's call options cannot be mapped");
    }
  });

  it('keeps the refused value in the details where it is JSON', () => {
    const error = refusalOf(() =>
      canonicalOfAiSdkCall(
        changed((call) => (at(call, ['prompt', 1]).role = 'developer')),
        FIXTURE_MODEL,
      ),
    );
    expect(error.details.data).toBe('developer');
  });
});
