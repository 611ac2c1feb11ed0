export { instantOf } from './instant.js';
export { listingInstantOf } from './listing-instant.js';
