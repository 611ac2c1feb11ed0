import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '../../src/cli');
const files = readdirSync(CLI, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(join(CLI, name), 'utf8') }));

// Fields of the claims-triage scenario: its summarize and story say them, the CLI never does. A person's answer to
// an approval has a `decision` of its own (approved or rejected), which is forkpoint's word, so the claims
// decision is caught by its values instead.
const CLAIMS_FIELDS = /\b(payout|claimId|claim_id|damage_area_cm2|deductible|cover_limit|policy_id|refer|deny)\b/;

describe('src/cli', () => {
  it('holds the CLI’s files', () => {
    expect(files.map((file) => file.name)).toContain('main.ts');
    expect(files.length).toBeGreaterThan(30);
  });

  it.each(files)('$name: at most 300 lines, no double cast, no claims field', ({ name, text }) => {
    expect(text.split('\n').length, relative(CLI, name)).toBeLessThanOrEqual(301);
    expect(text).not.toContain('as unknown as');
    expect(text).not.toMatch(CLAIMS_FIELDS);
  });
});
