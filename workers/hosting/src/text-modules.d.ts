/** dist/guest-sdk.txt: the bundled guest SDK, imported as text (wrangler's default rule for .txt). */
declare module '*.txt' {
  const text: string;
  export default text;
}
