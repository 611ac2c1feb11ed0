/** The few parts of a browser element the page script uses (the project's types carry no DOM library). */
interface PageElement {
  scrollIntoView(options: { readonly block: 'center' | 'start' }): void;
  focus(options: { readonly preventScroll: boolean }): void;
  readonly id: string;
  readonly tagName: string;
}

interface PageKeyEvent {
  readonly key: string;
  readonly target: unknown;
  readonly altKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  preventDefault(): void;
}

interface PageDocument {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  addEventListener(type: 'keydown', listener: (event: PageKeyEvent) => void): void;
}

/** What the page script reads of the window it runs in. */
export interface PageWindow {
  readonly document: PageDocument;
  readonly location: { readonly hash: string };
}

/**
 * What a page does with JavaScript on; everything it shows is there without.
 * It scrolls the first divergence into view when the URL names no step, and
 * gives the keys `d` (the first divergence), `j` and `k` (the next and the
 * previous step row), none of them while the reader types in a field.
 * Self-contained on purpose: it is serialized into every page as it is.
 */
export function enhancePage(win: PageWindow): void {
  const doc = win.document;
  const rows = (): PageElement[] => Array.from(doc.querySelectorAll('[data-step][id]'));
  const show = (element: PageElement | null): void => {
    if (element === null) return;
    element.scrollIntoView({ block: 'center' });
    element.focus({ preventScroll: true });
  };
  if (win.location.hash === '') show(doc.querySelector('[data-first-divergence]'));
  let at = -1;
  doc.addEventListener('keydown', (event) => {
    const target = event.target as { readonly tagName?: string } | null;
    const typing = target !== null && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName ?? '');
    if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
    const all = rows();
    if (event.key === 'd') show(doc.querySelector('[data-first-divergence]'));
    else if (event.key === 'j' || event.key === 'k') {
      at = Math.max(0, Math.min(all.length - 1, at + (event.key === 'j' ? 1 : -1)));
      show(all[at] ?? null);
    } else return;
    event.preventDefault();
  });
}

/** The page script as the browser runs it: {@link enhancePage} applied to the window. */
export const PAGE_SCRIPT = `(${enhancePage.toString()})(window);`;
