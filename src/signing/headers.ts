/** Header names of a delivery (Endpoints > Webhook receiver contract), lower-case as Node gives them. */
export const SIGNATURE_HEADER = 'x-service-signature';
export const TIMESTAMP_HEADER = 'x-service-timestamp';
