/** Recorded upstream streams, imported as text (vite `?raw`). */
declare module '*.sse?raw' {
  const text: string;
  export default text;
}
