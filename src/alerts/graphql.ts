/** The GraphQL face of the module (resolver, object types); its services and runners are in index.ts. */
export { AlertResolver } from './alert.resolver.js';
export {
  AlertRuleType,
  AlertRuleInput,
  AlertEmailPreferenceType,
  WebhookEndpointType,
  WebhookDeliveryType,
  WebhookDeliveryConnection,
} from './alert.types.js';
