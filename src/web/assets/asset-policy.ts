import { createHash } from 'node:crypto';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The content security policy of a report file: its one inline stylesheet and
 * one inline script, by hash, and nothing else from anywhere (no fetch, no
 * image but `data:`, no form), so markup that slipped into a payload could
 * neither run nor call out.
 */
export function inlineAssetPolicy(): string {
  return [
    "default-src 'none'",
    `style-src ${sha256(PAGE_STYLE)}`,
    `script-src ${sha256(PAGE_SCRIPT)}`,
    'img-src data:',
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * The content security policy the server sends with every page: its own
 * stylesheet and script, its own JSON documents, and nothing from anywhere else.
 */
export const SERVER_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
