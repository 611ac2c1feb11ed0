import type { Locator } from 'playwright-core';

/**
 * Opens, as a reader would, the fold `within` (a `<details>`) and every
 * closed fold inside it on the way to the text `text`, each by a click on its
 * summary, outermost first; returns the element that shows the text.
 */
export async function unfoldTo(within: Locator, text: string, options: { exact?: boolean } = {}): Promise<Locator> {
  const target = within.page().getByText(text, options);
  const folds = [within, ...(await within.locator('details', { has: target }).all())];
  for (const fold of folds) {
    if ((await fold.getAttribute('open')) === null) await fold.locator(':scope > summary').click();
  }
  return within.getByText(text, options).first();
}
