import type { RunRetention } from '../../engine/index.js';
import type { Provenance, RunStatus } from '../../vocabulary/index.js';
import type { Html } from '../html/html.js';
import { html } from '../html/html.js';

// A glyph for each provenance, beside its word: the colour is never the only sign.
const PROVENANCE_GLYPH: Readonly<Record<Provenance, string>> = {
  recorded: '▣',
  live: '●',
  override: '✎',
  inherited: '↳',
  simulated: '◇',
  human: '✋',
};

/** A step's provenance as a badge: its colour, a glyph and the word itself. */
export function provenanceBadge(provenance: string): Html {
  const glyph = provenance in PROVENANCE_GLYPH ? PROVENANCE_GLYPH[provenance as Provenance] : '?';
  return html`<span class="badge prov-${provenance}" data-provenance="${provenance}"
    ><span aria-hidden="true">${glyph}</span> ${provenance}</span
  >`;
}

const STATUS_GLYPH: Readonly<Record<RunStatus, string>> = {
  completed: '✓',
  failed: '✗',
  diverged: '≠',
  running: '…',
  interrupted: '⏸',
  'awaiting-approval': '✋',
};

/** A run's status with its glyph, for tables and headers. */
export function statusBadge(status: RunStatus): Html {
  return html`<span class="status status-${status}"><span aria-hidden="true">${STATUS_GLYPH[status]}</span> ${status}</span>`;
}

/** A run's mode, as the CLI prints it. */
export function modeLabel(mode: string): Html {
  return html`<span class="mode mode-${mode.replace(/[^a-z]/g, '-')}">${mode}</span>`;
}

/** What the store holds of a run and until when, in words. */
export function tierText(retention: RunRetention): string {
  if (retention.purge !== null)
    return retention.purge.reason === 'expired'
      ? `full tier expired ${retention.purge.at}: shape only`
      : 'shape only: the full tier was not captured';
  if (retention.expired) return `full tier expired ${retention.expiresAt ?? ''}: shape only`;
  return retention.expiresAt === null ? `${retention.tier}, kept` : `${retention.tier} until ${retention.expiresAt}`;
}

/** US dollars as the CLI prints them; `?` for a price nobody knows. */
export function usd(amount: number | null | undefined): string {
  if (amount === undefined) return '-';
  return amount === null ? '?' : amount.toFixed(6);
}

/** A short request hash, as the CLI prints it. */
export function shortHash(hash: string): string {
  return hash.slice(0, 16);
}
