/** The guest's modules the host adds beside this bundle (src/runtime/python-guest.ts). */
declare module 'pyodide.asm.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
declare module 'python_stdlib.zip' {
  const data: ArrayBuffer;
  export default data;
}
declare module 'pyodide-trampolines.js' {
  const trampolines: [string, WebAssembly.Module][];
  export default trampolines;
}
declare module 'python-site.json' {
  const files: Record<string, string>;
  export default files;
}
declare module 'pyodide/pyodide.asm.js';
