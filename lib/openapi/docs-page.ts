import { DOCS_SCRIPT } from './docs-script.ts';

const STYLE = `
:root { color-scheme: light dark; --bg:#f6f7fb; --surface:#fff; --text:#1c2030; --muted:#5e667a; --border:#e1e4ee; --accent:#4f46e5; --code:#f0f1f6; --danger:#c0262d; font-family: system-ui, sans-serif; background: var(--bg); color: var(--text); }
@media (prefers-color-scheme: dark) { :root { --bg:#12141c; --surface:#1b1e29; --text:#e6e8ef; --muted:#9aa1b4; --border:#2c3142; --accent:#7c74ff; --code:#252a38; --danger:#ff6b6b; } }
body { margin: 0 auto; max-width: 60rem; padding: 1rem 1.25rem 4rem; }
h1 small { font-weight: 400; color: var(--muted); font-size: .9rem; }
h2 { margin-top: 2rem; border-bottom: 1px solid var(--border); padding-bottom: .3rem; }
a { color: var(--accent); }
.bar { display: flex; gap: .5rem; position: sticky; top: 0; background: var(--bg); padding: .5rem 0; z-index: 1; }
.bar input { flex: 1; }
input, textarea, button { font: inherit; padding: .4rem .6rem; border: 1px solid var(--border); border-radius: 6px; background: var(--surface); color: var(--text); }
textarea { width: 100%; box-sizing: border-box; font-family: ui-monospace, monospace; font-size: .85rem; }
button { background: var(--accent); color: #fff; border: 0; cursor: pointer; }
details.op { background: var(--surface); border: 1px solid var(--border); border-radius: 8px; margin: .5rem 0; padding: .4rem .8rem; }
details.op.undocumented { border-color: var(--danger); }
details.op > summary { cursor: pointer; display: flex; gap: .6rem; align-items: baseline; }
.method { font: 600 .75rem ui-monospace, monospace; padding: .1rem .4rem; border-radius: 4px; color: #fff; min-width: 3.5rem; text-align: center; }
.method.get { background: #2f7d4f; } .method.post { background: #3558c9; } .method.put, .method.patch { background: #a15c00; } .method.delete { background: #b3261e; }
.summary, .muted { color: var(--muted); }
.try { display: grid; gap: .5rem; margin: .6rem 0; }
.try label { display: grid; gap: .2rem; font-size: .85rem; }
.try button { justify-self: start; }
pre { background: var(--code); padding: .6rem; border-radius: 6px; overflow: auto; max-height: 28rem; font-size: .8rem; }
.schema summary { cursor: pointer; font-size: .85rem; }
.status .code { font-weight: 700; } .code.s2 { color: #2f7d4f; } .code.s4, .code.s5 { color: var(--danger); }
.error { color: var(--danger); }
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** No network beyond this origin: the page carries its own script and style, and may only call its own Worker. */
export const DOCS_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

/** The interactive API reference: a self-contained page that renders `specUrl` and lets the reader try each operation. */
export function docsPage(title: string, specUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<link rel="icon" href="data:," />
<title>${escapeHtml(title)} · API reference</title>
<style>${STYLE}</style>
</head>
<body>
<div id="app" data-spec="${escapeHtml(specUrl)}"><p>Loading the API description…</p></div>
<script>${DOCS_SCRIPT}</script>
</body>
</html>`;
}
