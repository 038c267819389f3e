/** The test identity provider for session tokens: provider, its JWKS server, forges, mutations. */
export {
  TestIdentityProvider,
  type IdentityProviderOptions,
  type MintOptions,
  type ClaimsOptions,
} from './provider.js';
export { JwksServer, type JwksServerOptions, type JwksMount } from './jwks-server.js';
export { SIGNING_ALGS, type SigningAlg } from './keys.js';
export { SESSION_LIFETIME_SEC, NBF_LEAD_SEC, nowSeconds } from './claims.js';
export * from './forge.js';
export { jwtMutation, type JwtMutation, type ByteEdit } from './mutation.js';
