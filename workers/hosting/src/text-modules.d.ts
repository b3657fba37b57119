/** dist/guest-sdk.txt: the bundled guest SDK, imported as text (wrangler's default rule for .txt). */
declare module '*.txt' {
  const text: string;
  export default text;
}

/** dist/pyodide/*.bin: Pyodide's wasm and standard library, imported as bytes (wrangler's default rule for .bin). */
declare module '*.bin' {
  const data: ArrayBuffer;
  export default data;
}
