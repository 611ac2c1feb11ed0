export { PAGE_SCRIPT, enhancePage } from './page-script.js';
export type { PageWindow } from './page-script.js';
export { PAGE_STYLE } from './page-style.js';
export { SERVER_POLICY, inlineAssetPolicy } from './asset-policy.js';
