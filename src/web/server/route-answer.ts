import type { PageParts } from '../pages/layout.js';
import type { ViewContext } from './view-context.js';

/** What a route answers: a page, a JSON document, or a redirect. */
export type RouteAnswer =
  | { readonly kind: 'page'; readonly parts: PageParts }
  | { readonly kind: 'json'; readonly document: unknown }
  | { readonly kind: 'redirect'; readonly location: string };

/** A route: the paths it answers (its groups are the path's parameters) and how. */
export interface Route {
  readonly path: RegExp;
  answer(params: readonly string[], query: URLSearchParams, context: ViewContext): Promise<RouteAnswer>;
}
