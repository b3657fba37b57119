export { checkOutboundUrl, isPrivateOrLoopbackUrl, type UrlCheck, type UrlPolicy, urlPolicyFromEnv } from './url-policy.ts';
