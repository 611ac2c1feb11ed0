import { PAGE_SCRIPT, PAGE_STYLE } from '../assets/index.js';

/** A file the server hands out as it is. */
export interface AssetFile {
  readonly type: string;
  readonly body: string;
}

/**
 * Every file the server serves that is not a page or a document: these two,
 * by exact path. Nothing is read from disk, so no path, however written,
 * reaches a file outside them.
 */
export const ASSET_FILES: ReadonlyMap<string, AssetFile> = new Map([
  ['/assets/forkpoint.css', { type: 'text/css; charset=utf-8', body: PAGE_STYLE }],
  ['/assets/forkpoint.js', { type: 'text/javascript; charset=utf-8', body: PAGE_SCRIPT }],
]);
