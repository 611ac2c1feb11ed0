export { instantOf } from './instant.js';
export { listingInstantOf, requireListingInstant } from './listing-instant.js';
