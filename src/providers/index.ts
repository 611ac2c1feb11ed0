export { notAClient, providerErrorOf, unmappedResponse } from './provider-errors.js';
