import { styleText } from 'node:util';

/** Text decorations; plain when colour is off. Functions, not methods: a column's cell is painted by one passed on. */
export interface Style {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly cyan: (text: string) => string;
}

type Format = Parameters<typeof styleText>[0];

// By itself styleText judges process.stdout, never the stream the CLI was handed, and on Node 20.20 (checked
// here) it honours NO_COLOR for one format but not for a list of them (nodejs/node#56717). So the choice is made
// once, by styleFor below, and styleText only paints.
const painter =
  (format: Format) =>
  (text: string): string =>
    styleText(format, text, { validateStream: false });

const COLOURED: Style = {
  bold: painter('bold'),
  dim: painter('dim'),
  red: painter('red'),
  green: painter('green'),
  yellow: painter('yellow'),
  cyan: painter('cyan'),
};
const plain = (text: string): string => text;
const PLAIN: Style = { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };

/**
 * Colour only for a terminal, and never when `NO_COLOR` is set to anything
 * but the empty string (https://no-color.org); `FORCE_COLOR` does not apply:
 * output that is not a terminal is read by programs.
 */
export function styleFor(
  stream: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): Style {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return stream.isTTY === true && !noColor ? COLOURED : PLAIN;
}
