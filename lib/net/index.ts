export { policyFetch, type PolicyFetchResult } from './policy-fetch.ts';
export { checkOutboundUrl, isPrivateOrLoopbackUrl, type UrlPolicy, urlPolicyFromEnv } from './url-policy.ts';
