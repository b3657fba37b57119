import { GUEST_SLICE_MS, OVER_BUDGET_TAG } from './protocol.ts';

/**
 * The watchdog inside a hosted agent's isolate. The host puts a call to `guard` at the top of every loop body
 * and function body of the agent's code (runtime/loop-guard.ts), so code that runs past its budget is stopped
 * where the runtime itself cannot stop it: in local workerd, which runs every isolate on one thread and
 * enforces no CPU limit, a busy loop would stall every tenant (issue 22). The budgets: one synchronous run of at
 * most GUEST_SLICE_MS, and each call (message, startup, interval) within its own wall-clock budget. Once over,
 * the isolate stays over: every guard throws, so no code of the agent runs on, whatever it catches.
 *
 * The clock and scheduler are taken when this module loads, before any of the agent's code: code that
 * replaces `Date.now` or `queueMicrotask` later cannot blind the guard. (Deployed, the clock does not move
 * while code runs; there the runtime's own CPU limit stops a busy loop.)
 */
const now = Date.now;
const schedule = queueMicrotask;

let overBudget: string | null = null;
let sliceStart: number | null = null;
const deadlines = new Map<number, { at: number; what: string }>();
let earliest = { at: Number.POSITIVE_INFINITY, what: '' };
let nextCall = 0;

/** Marks the isolate over its budget for good (every guard throws from now on) and throws. */
export function trip(reason: string): never {
  overBudget ??= reason;
  throw new Error(`${OVER_BUDGET_TAG} ${overBudget}`);
}

/** Guard calls between two readings of the clock within one run: few, since one call may follow a long native call (a large allocation). */
const CLOCK_STRIDE = 4;
let countdown = 0;

/** Called by the agent's code at every loop iteration and function entry (inserted by the host). */
export function guard(): void {
  if (overBudget !== null) trip(overBudget);
  let at: number;
  if (sliceStart === null) {
    at = now();
    sliceStart = at;
    // Runs once the current synchronous run ends: the next guard starts a new slice.
    schedule(() => {
      sliceStart = null;
    });
  } else {
    countdown -= 1;
    if (countdown > 0) return;
    at = now();
    if (at - sliceStart > GUEST_SLICE_MS)
      trip(`the agent's code ran ${at - sliceStart} ms without yielding, past its budget of ${GUEST_SLICE_MS} ms`);
  }
  countdown = CLOCK_STRIDE;
  if (at > earliest.at) trip(`${earliest.what} ran past its budget`);
}

/** The earliest deadline of the calls under way, kept as they come and go so that the guard reads one number. */
function updateEarliest(): void {
  earliest = { at: Number.POSITIVE_INFINITY, what: '' };
  for (const deadline of deadlines.values()) if (deadline.at < earliest.at) earliest = deadline;
}

/** Runs one call of the host's within `budgetMs` of wall-clock time as the guard sees it. */
export async function withinBudget<T>(what: string, budgetMs: number, call: () => Promise<T>): Promise<T> {
  if (overBudget !== null) trip(overBudget);
  const id = nextCall++;
  deadlines.set(id, { at: now() + budgetMs, what });
  updateEarliest();
  try {
    return await call();
  } finally {
    deadlines.delete(id);
    updateEarliest();
  }
}

/** Why this isolate is over its budget, or null. */
export function overBudgetReason(): string | null {
  return overBudget;
}

/** A fresh start of the agent (the owner started it again): its past budget no longer stops it. */
export function startAfresh(): void {
  overBudget = null;
  sliceStart = null;
  deadlines.clear();
  updateEarliest();
}
