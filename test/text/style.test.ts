import { describe, expect, it } from 'vitest';
import { styleFor } from '../../src/text/style.js';
import { cli } from '../support/cli-harness.js';

const ESC = '\u001b[';

describe('styleFor', () => {
  it('paints for a terminal', () => {
    expect(styleFor({ isTTY: true }, {}).red('x')).toBe(`${ESC}31mx${ESC}39m`);
    expect(styleFor({ isTTY: true }, {}).bold('x')).toBe(`${ESC}1mx${ESC}22m`);
  });

  it('paints nothing when NO_COLOR is set to anything but the empty string', () => {
    const style = styleFor({ isTTY: true }, { NO_COLOR: '1' });
    expect([
      style.bold('x'),
      style.dim('x'),
      style.red('x'),
      style.green('x'),
      style.yellow('x'),
      style.cyan('x'),
    ]).toEqual(['x', 'x', 'x', 'x', 'x', 'x']);
    expect(styleFor({ isTTY: true }, { NO_COLOR: '' }).red('x')).toBe(`${ESC}31mx${ESC}39m`);
  });

  it('paints nothing for a stream that is not a terminal, whatever FORCE_COLOR says', () => {
    expect(styleFor({ isTTY: false }, { FORCE_COLOR: '1' }).red('x')).toBe('x');
    expect(styleFor({}, {}).green('x')).toBe('x');
  });
});

describe('colour in the CLI', () => {
  const record = (options: { tty: boolean; env: Record<string, string> }) =>
    cli(
      ['record', 'scenarios/claims-triage', '--claim', 'CLM-91077', '--at', '2026-03-04', '--db', ':memory:'],
      options,
    );

  it('colours a terminal’s output', async () => {
    expect((await record({ tty: true, env: {} })).stdout).toContain(ESC);
  });

  it('prints plain text under NO_COLOR, and to a pipe', async () => {
    const noColour = await record({ tty: true, env: { NO_COLOR: '1' } });
    const piped = await record({ tty: false, env: {} });
    expect(noColour.stdout).not.toContain(ESC);
    expect(piped.stdout).not.toContain(ESC);
    expect(noColour.stdout).toMatch(/^record · run [0-9a-f]{12} /);
  });
});
