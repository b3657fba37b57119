import { type Dialect, speaks } from '../../../lib/http/errors.ts';
import type { RouterError } from '../../../schemas/router-api.ts';

/**
 * The spec gives the router's errors as `{error: string}`: clients written for it show `error` as text. The
 * platform's `code` and `param` go beside it, so ours can branch on the code. Declared on the router's own
 * routes (`/api/*`, `/webhook`) with `speaksSpec`; its other routes answer in the platform's shape.
 */
const routerDialect: Dialect = (error): RouterError => ({ error: error.message, code: error.code, param: error.param });

export const speaksSpec = speaks(routerDialect);
