/** Opens every offline reply, so nobody mistakes rules for a model. */
export const OFFLINE_LABEL = '[offline engine: deterministic rules, not a language model]';
