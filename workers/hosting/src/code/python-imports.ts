import PYTHON_SITE from '../../dist/python-site.txt';
import { PYODIDE_STDLIB_MODULES } from '../python/pyodide-recorded.ts';

/** Modules Pyodide provides to Python code besides the standard library. */
const PYODIDE_MODULES = ['js', 'pyodide', 'pyodide_js', '_pyodide'];

/** The platform's Python modules (src/python/site) and the names each exports (its `__all__`). */
let platform: Map<string, Set<string>> | undefined;
function platformModules(): Map<string, Set<string>> {
  if (platform) return platform;
  platform = new Map();
  for (const [path, source] of Object.entries(JSON.parse(PYTHON_SITE) as Record<string, string>)) {
    const module = path.replace(/\/__init__\.py$|\.py$/, '').replaceAll('/', '.');
    if (module.startsWith('_')) continue;
    const names = /^__all__ = \[([^\]]*)\]/m.exec(source)?.[1] ?? '';
    platform.set(module, new Set([...names.matchAll(/"([^"]+)"/g)].map((match) => match[1]!)));
  }
  return platform;
}

/** One import statement's module and the names it takes from it (`from m import a, b`). */
interface PythonImport {
  line: number;
  module: string;
  names: string[];
}

// Disjoint character classes on each side of every quantifier: linear on any line.
const FROM = /^from\s+([\w.]+)\s+import\s(.*)$/;
const IMPORT = /^import\s(.*)$/;

/** `a as b, c` (comments and parentheses dropped) as the names it imports: a, c. */
const namesOf = (list: string) =>
  list
    .split('#')[0]!
    .replaceAll('(', ' ')
    .replaceAll(')', ' ')
    .split(',')
    .map((part) => part.trim().split(/\s/)[0]!)
    .filter((name) => name !== '' && name !== '*');

/** Import statements, indented ones too, one a line (a parenthesised list may span lines). */
function importsOf(source: string): PythonImport[] {
  const lines = source.split('\n');
  const found: PythonImport[] = [];
  for (let index = 0; index < lines.length; index++) {
    let text = lines[index]!.trim();
    if (!text.startsWith('import ') && !text.startsWith('from ')) continue;
    const line = index + 1;
    if (text.includes('(') && !text.includes(')')) {
      const parts = [text];
      while (index + 1 < lines.length && !parts[parts.length - 1]!.includes(')')) parts.push(lines[++index]!.trim());
      text = parts.join(' ');
    }
    const from = FROM.exec(text);
    if (from) found.push({ line, module: from[1]!, names: namesOf(from[2]!) });
    else {
      const plain = IMPORT.exec(text);
      if (plain) for (const module of namesOf(plain[1]!)) found.push({ line, module, names: [] });
    }
  }
  return found;
}

/**
 * What uploaded Python imports that this platform lacks, as one message per miss naming it: a module that is
 * neither uploaded, nor in Pyodide's standard library, nor one of the platform's; or a name the platform's
 * `uagents` modules do not export. Relative imports (`from . import x`) are the upload's own. Only Python files
 * are read: a data file's lines are no imports.
 */
export function missingPythonImports(files: { name: string; value: string; language: string }[]): { file: number; message: string }[] {
  const uploaded = new Set(
    files.map(
      (file) =>
        file.name
          .replace(/\.py$/, '')
          .replace(/\/__init__$/, '')
          .split('/')[0]!,
    ),
  );
  const modules = platformModules();
  const platformRoots = new Set([...modules.keys()].map((module) => module.split('.')[0]!));
  const misses: { file: number; message: string }[] = [];
  for (const [index, file] of files.entries()) {
    if (file.language !== 'python') continue;
    for (const statement of importsOf(file.value)) {
      if (statement.module.startsWith('.')) continue;
      const root = statement.module.split('.')[0]!;
      const where = `${file.name} line ${statement.line}`;
      if (uploaded.has(root) || PYODIDE_STDLIB_MODULES.includes(root) || PYODIDE_MODULES.includes(root)) continue;
      if (!platformRoots.has(root)) {
        misses.push({
          file: index,
          message: `${where}: module ${statement.module} is not available here (the standard library, uagents and uagents_core are)`,
        });
        continue;
      }
      const exported = modules.get(statement.module);
      const submodules = (name: string) => modules.has(`${statement.module}.${name}`);
      if (!exported) {
        misses.push({ file: index, message: `${where}: ${statement.module} is not part of this platform's ${root}` });
        continue;
      }
      for (const name of statement.names) {
        if (!exported.has(name) && !submodules(name))
          misses.push({ file: index, message: `${where}: ${statement.module} has no ${name} on this platform` });
      }
    }
  }
  return misses;
}
