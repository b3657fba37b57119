import { transform } from 'sucrase';
import type { SourceFile } from './files.ts';

export type Compiled = { ok: true; modules: Record<string, string> } | { ok: false; message: string };

/**
 * TypeScript to JavaScript with sucrase (types stripped, imports kept as ES modules): it runs inside
 * workerd, fast, with no WebAssembly to compile at runtime (docs/decisions/0024). Types are not
 * checked: a syntax error fails the compilation, a type error does not.
 */
export function compile(files: SourceFile[]): Compiled {
  const modules: Record<string, string> = {};
  for (const file of files) {
    // Python is not compiled here: the guest runs it (a syntax error fails the start, in the agent's logs).
    // Data files are no modules: they are kept with the code.
    if (file.language === 'python' || file.language === 'data') continue;
    if (file.language === 'javascript') {
      modules[file.name] = file.value;
      continue;
    }
    try {
      modules[file.name] = transform(file.value, { transforms: ['typescript'], filePath: file.name, disableESTransforms: true }).code;
    } catch (error) {
      return { ok: false, message: `${file.name}: ${(error as Error).message}` };
    }
  }
  return { ok: true, modules };
}
