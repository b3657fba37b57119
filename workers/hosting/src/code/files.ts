import { z } from 'zod';
import { missingPythonImports } from './python-imports.ts';
import { type CodeFile, codeFileSchema, HOSTED_LANGUAGES, type ValidationError } from '../../../../schemas/hosting.ts';

/** Module names the platform gives every hosted agent; uploaded files may not take them. */
const RESERVED_MODULES = ['rendezvous/agent', 'zod', '__rendezvous_main.js'];

/** Files tried, in order, as the agent's main module; otherwise the first file. */
const MAIN_CANDIDATES = ['agent.ts', 'agent.js', 'main.ts', 'main.js', 'index.ts', 'index.js', 'agent.py', 'main.py'];

const MAX_FILES = 50;

type Language = (typeof HOSTED_LANGUAGES)[number];

export interface SourceFile {
  name: string;
  value: string;
  /** `data`: a file the code may read (Agentverse's requirements.txt, a JSON config), never run. */
  language: Language | 'data';
}

export type ParsedCode = { ok: true; files: SourceFile[]; main: string } | { ok: false; error: ValidationError };

const LANGUAGE_ALIASES: Record<string, Language | 'data'> = {
  typescript: 'typescript',
  ts: 'typescript',
  javascript: 'javascript',
  js: 'javascript',
  python: 'python',
  py: 'python',
  // The languages Agentverse's deploy script gives files that are not code (docs/decisions/0223).
  text: 'data',
  plaintext: 'data',
  json: 'data',
  markdown: 'data',
  yaml: 'data',
  toml: 'data',
};

const invalid = (loc: (string | number)[], msg: string, type: string): ParsedCode => ({
  ok: false,
  error: { detail: [{ loc: ['body', 'code', ...loc], msg, type }] },
});

/**
 * The code string as Agentverse sends it: JSON `[{name, value, language, id?}]`. A string that is not such
 * JSON is an older client's raw source: one file, agent.py if it imports uagents, else agent.ts.
 */
export function parseCode(code: string): ParsedCode {
  let json: unknown;
  try {
    json = JSON.parse(code);
  } catch {
    json = undefined;
  }
  if (!Array.isArray(json)) return rawSource(code);
  if (json.length === 0) return invalid([], 'the code holds no files', 'value_error');
  if (json.length > MAX_FILES) return invalid([], `at most ${MAX_FILES} files`, 'value_error');
  const parsed = z.array(codeFileSchema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return invalid(
      issue.path.map((part) => (typeof part === 'number' ? part : String(part))),
      issue.message,
      issue.code,
    );
  }
  const files: SourceFile[] = [];
  const seen = new Set<string>();
  for (const [index, file] of parsed.data.entries()) {
    const checked = checkFile(file, index, seen);
    if ('ok' in checked) return checked;
    files.push(checked);
  }
  const program = files.filter((file) => file.language !== 'data');
  if (program.length === 0) return invalid([], 'the code holds no program: upload a Python, TypeScript or JavaScript file', 'value_error');
  // A Python agent runs in a Python guest, a TypeScript one in a JavaScript guest: one upload is one of them.
  const python = files.findIndex((file) => file.language === 'python');
  const other = files.findIndex((file) => file.language !== 'python' && file.language !== 'data');
  if (python !== -1 && other !== -1)
    return invalid(
      [Math.max(python, other), 'language'],
      'Python files and TypeScript/JavaScript files cannot run as one agent',
      'value_error',
    );
  if (python !== -1) {
    const miss = missingPythonImports(files)[0];
    if (miss) return invalid([miss.file, 'value'], miss.message, 'value_error');
  }
  const main = MAIN_CANDIDATES.find((name) => seen.has(name)) ?? program[0]!.name;
  return { ok: true, files, main };
}

/** An older client's raw source: Python if it imports uagents (Agentverse's own clients), else TypeScript. */
function rawSource(code: string): ParsedCode {
  if (/^\s*(?:from|import)\s+uagents/m.test(code)) {
    const files: SourceFile[] = [{ name: 'agent.py', value: code, language: 'python' }];
    const miss = missingPythonImports(files)[0];
    return miss ? invalid([], miss.message, 'value_error') : { ok: true, files, main: 'agent.py' };
  }
  return { ok: true, files: [{ name: 'agent.ts', value: code, language: 'typescript' }], main: 'agent.ts' };
}

function checkFile(file: CodeFile, index: number, seen: Set<string>): SourceFile | ParsedCode {
  const language = LANGUAGE_ALIASES[file.language.toLowerCase()];
  if (!language) {
    return invalid(
      [index, 'language'],
      `${file.language} code does not run on this platform; hosted agents run ${HOSTED_LANGUAGES.join(', ')}`,
      'value_error',
    );
  }
  if (RESERVED_MODULES.includes(file.name))
    return invalid([index, 'name'], `${file.name} is the platform's own module name`, 'value_error');
  if (seen.has(file.name)) return invalid([index, 'name'], `two files are named ${file.name}`, 'value_error');
  seen.add(file.name);
  return { name: file.name, value: file.value, language };
}
