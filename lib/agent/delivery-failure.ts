// A leaf module: types.ts and delivery.ts both use the code, and delivery.ts imports (through bound.ts) types.ts.

/**
 * Why a delivery did not get through, as a code safe to show anyone (no URL, no receiver's text):
 * `unresolvable` (no endpoint known), `url_refused` (the URL policy), `no_answer` (connection failed),
 * `timeout`, `http_<status>` (the receiver answered with that status).
 */
export type DeliveryFailureCode = 'unresolvable' | 'url_refused' | 'no_answer' | 'timeout' | `http_${number}`;
