import { type Node, parse } from 'acorn';

/** The name the guard is imported as in every module of hosted code; code that names it itself is refused. */
const GUARD = '__rdv_guard';

/**
 * The guard's import in the module named `file`: the loader resolves a bare name against the importing module's
 * folder, so a module in a folder climbs back to the platform's `rendezvous/agent`.
 */
function guardImport(file: string): string {
  const depth = file.split('/').length - 1;
  return `import { guard as ${GUARD} } from ${JSON.stringify(`${'../'.repeat(depth)}rendezvous/agent`)};`;
}

const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

interface Insertion {
  at: number;
  text: string;
  /** Closers go before openers at one position: they end what began earlier. */
  closes: boolean;
}

type AnyNode = Node & Record<string, unknown>;

function isNode(value: unknown): value is AnyNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** Each node of the tree, parents before children (an explicit stack: deep code cannot overflow the host's). */
function* nodes(root: AnyNode): Generator<AnyNode> {
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    yield node;
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const item of value) if (isNode(item)) stack.push(item);
      if (isNode(value)) stack.push(value);
    }
  }
}

/** A call to the guard first in `body`: after a block's `{`, or around a lone statement or an arrow's expression. */
function guardBody(body: AnyNode, expression: boolean): Insertion[] {
  if (body.type === 'BlockStatement') return [{ at: body.start + 1, text: `${GUARD}();`, closes: false }];
  if (expression) {
    return [
      { at: body.start, text: `(${GUARD}(), `, closes: false },
      { at: body.end, text: ')', closes: true },
    ];
  }
  return [
    { at: body.start, text: `{${GUARD}();`, closes: false },
    { at: body.end, text: '}', closes: true },
  ];
}

export type Guarded = { ok: true; js: string } | { ok: false; message: string };

/**
 * One module of hosted code (JavaScript, as compiled) with the guard called at the top of every loop body and
 * function body (guest/guard.ts says why). Parsed, not pattern-matched, so every loop and function is found;
 * code that declares or uses the guard's name itself is refused, so it cannot shadow the guard.
 */
export function guardLoops(js: string, file: string): Guarded {
  let tree: AnyNode;
  try {
    tree = parse(js, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as AnyNode;
  } catch (error) {
    return { ok: false, message: `${file}: ${(error as Error).message}` };
  }
  const insertions: Insertion[] = [];
  for (const node of nodes(tree)) {
    if (node.type === 'Identifier' && node.name === GUARD) return { ok: false, message: `${file}: the name ${GUARD} is the platform's` };
    if (LOOPS.has(node.type)) insertions.push(...guardBody(node.body as AnyNode, false));
    else if (FUNCTIONS.has(node.type)) insertions.push(...guardBody(node.body as AnyNode, node.type === 'ArrowFunctionExpression'));
  }
  insertions.sort((a, b) => a.at - b.at || Number(b.closes) - Number(a.closes));
  const parts: string[] = [guardImport(file)];
  let from = 0;
  for (const insertion of insertions) {
    parts.push(js.slice(from, insertion.at), insertion.text);
    from = insertion.at;
  }
  parts.push(js.slice(from));
  return { ok: true, js: parts.join('') };
}
