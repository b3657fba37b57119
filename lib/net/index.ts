export { policyFetch, type PolicyFetchOptions, type PolicyFetchResult } from './policy-fetch.ts';
export { checkOutboundUrl, isPrivateOrLoopbackUrl, type UrlCheck, type UrlPolicy, urlPolicyFromEnv } from './url-policy.ts';
