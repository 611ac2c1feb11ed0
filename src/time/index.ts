export { instantOf } from './instant.js';
