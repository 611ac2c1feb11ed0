export { notAClient, providerErrorOf, unmappedResponse } from './provider-errors.js';
export { routeModels } from './route-models.js';
