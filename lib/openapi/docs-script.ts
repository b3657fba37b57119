/**
 * The browser script of the API reference page (docs-page.ts): renders the OpenAPI document and sends
 * requests from it. Plain ES2020, no libraries (the page must work offline); every text from the document
 * or a response is set as textContent, never as HTML.
 */
// biome-ignore lint/complexity/noUselessStringRaw: raw, so a backslash later written in the script reaches the browser as written.
export const DOCS_SCRIPT = String.raw`
'use strict';
const root = document.getElementById('app');
const specUrl = root.dataset.spec;
const TOKEN_KEY = 'rendezvous.docs.token';
let doc;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function resolve(schema) {
  let current = schema || {};
  for (let i = 0; i < 10 && current.$ref; i++) current = doc.components.schemas[current.$ref.split('/').pop()] || {};
  return current;
}

/** A minimal request body: required fields only, first enum value, minimum numbers. */
function sample(schema, depth) {
  const s = resolve(schema);
  if (depth > 6) return null;
  if ('example' in s) return s.example;
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  const options = s.anyOf || s.oneOf;
  if (options) {
    const usable = options.filter((o) => resolve(o).type !== 'null');
    return sample(usable[0] || {}, depth + 1);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object') {
    const out = {};
    for (const name of s.required || []) out[name] = sample((s.properties || {})[name], depth + 1);
    return out;
  }
  if (type === 'array') return s.minItems ? [sample(s.items, depth + 1)] : [];
  if (type === 'string') return s.format === 'uuid' ? crypto.randomUUID() : '';
  if (type === 'integer' || type === 'number') return s.minimum !== undefined ? s.minimum : 0;
  if (type === 'boolean') return false;
  return null;
}

function expandRefs(schema, depth) {
  if (depth > 8 || !schema || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((item) => expandRefs(item, depth + 1));
  const own = schema.$ref ? resolve(schema) : schema;
  const out = {};
  for (const [key, value] of Object.entries(own)) out[key] = expandRefs(value, depth + 1);
  return out;
}

function schemaBlock(label, schema) {
  return el('details', { class: 'schema' }, el('summary', { text: label }), el('pre', { text: JSON.stringify(expandRefs(schema, 0), null, 2) }));
}

async function send(method, path, op, form, output) {
  output.dataset.state = 'sending';
  output.replaceChildren(el('p', { class: 'muted', text: 'Sending…' }));
  let url = path;
  const query = new URLSearchParams();
  for (const input of form.querySelectorAll('input[data-in]')) {
    if (input.dataset.in === 'path') url = url.replace('{' + input.name + '}', encodeURIComponent(input.value));
    else if (input.value !== '') query.set(input.name, input.value);
  }
  const full = location.origin + url + (query.size ? '?' + query : '');
  const headers = { Accept: 'application/json, text/event-stream' };
  const token = sessionStorage.getItem(TOKEN_KEY);
  const auth = form.querySelector('input[name="authorization"]');
  if (auth && auth.value) headers.Authorization = auth.value;
  else if (token && op.security && op.security.some((s) => 'bearer' in s)) headers.Authorization = 'Bearer ' + token;
  const init = { method: method.toUpperCase(), headers };
  const body = form.querySelector('textarea');
  if (body) {
    headers['Content-Type'] = 'application/json';
    init.body = body.value;
  }
  const started = performance.now();
  let response;
  try {
    response = await fetch(full, init);
  } catch (error) {
    output.replaceChildren(el('p', { class: 'error', text: 'Request failed: ' + error.message }));
    output.dataset.state = 'failed';
    return;
  }
  const documented = op.responses && (op.responses[String(response.status)] || op.responses.default);
  const status = el('p', { class: 'status' },
    el('span', { class: 'code s' + String(response.status)[0], 'data-testid': 'response-status', text: String(response.status) }),
    ' ' + (response.statusText || '') + ' · ' + (documented ? 'documented: ' + documented.description : 'not a documented status'));
  const pre = el('pre', { class: 'body', 'data-testid': 'response-body' });
  output.replaceChildren(status, el('p', { class: 'muted', text: (response.headers.get('content-type') || '') + ' · ' + full }), pre);
  const reader = response.body ? response.body.getReader() : null;
  const decoder = new TextDecoder();
  let text = '';
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    pre.textContent = text;
  }
  try {
    pre.textContent = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    pre.textContent = text;
  }
  status.append(' · ' + Math.round(performance.now() - started) + ' ms');
  output.dataset.state = 'done';
}

function operationView(path, method, op) {
  const form = el('form', { class: 'try' });
  for (const param of op.parameters || []) {
    form.append(el('label', {},
      el('span', { text: param.name + (param.required ? ' *' : '') + ' (' + param.in + ')' }),
      el('input', { name: param.name, 'data-in': param.in, required: param.required, placeholder: param.description || '' })));
  }
  if (op.security && op.security.some((s) => 'agent' in s)) {
    form.append(el('label', {}, el('span', { text: 'Authorization' }), el('input', { name: 'authorization', placeholder: 'Agent attr:…' })));
  }
  const json = op.requestBody && op.requestBody.content['application/json'];
  if (json) {
    const example = 'example' in json ? json.example : sample(json.schema, 0);
    form.append(el('label', {}, el('span', { text: 'Body (JSON)' }), el('textarea', { rows: 8, spellcheck: 'false' })));
    form.querySelector('textarea').value = JSON.stringify(example, null, 2);
  }
  const output = el('div', { class: 'output' });
  form.append(el('button', { type: 'submit', text: 'Send request' }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    send(method, path, op, form, output);
  });
  const schemas = el('div', { class: 'schemas' });
  if (json) schemas.append(schemaBlock('Request body schema', json.schema));
  for (const [status, response] of Object.entries(op.responses || {})) {
    const content = response.content && Object.entries(response.content)[0];
    const label = status + ' · ' + response.description + (content ? ' (' + content[0] + ')' : '');
    if (content && content[1].schema) schemas.append(schemaBlock(label, content[1].schema));
    else schemas.append(el('p', { class: 'muted', text: label }));
  }
  const auth = !op.security || op.security.length === 0 ? 'no authentication' : op.security.map((s) => Object.keys(s)[0]).join(', ') + ' authentication';
  return el('details', { class: 'op' + (op['x-undocumented'] ? ' undocumented' : ''), id: op.operationId || method + path, 'data-op': method.toUpperCase() + ' ' + path },
    el('summary', {}, el('span', { class: 'method ' + method, text: method.toUpperCase() }), el('code', { text: path }), el('span', { class: 'summary', text: op.summary || '' })),
    op.description ? el('p', { text: op.description }) : null,
    el('p', { class: 'muted', text: auth }),
    schemas, form, output);
}

function render() {
  const token = el('input', { type: 'password', placeholder: 'API key or admin token (kept in this tab only)', 'aria-label': 'Bearer token' });
  token.value = sessionStorage.getItem(TOKEN_KEY) || '';
  token.addEventListener('input', () => sessionStorage.setItem(TOKEN_KEY, token.value));
  const filter = el('input', { type: 'search', placeholder: 'Filter operations', 'aria-label': 'Filter operations' });
  const sections = [];
  for (const tag of doc.tags || []) {
    const section = el('section', {}, el('h2', { text: tag.name }));
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) if ((op.tags || [])[0] === tag.name) section.append(operationView(path, method, op));
    }
    sections.push(section);
  }
  const undocumented = el('section', {}, el('h2', { text: 'Undocumented' }));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (op['x-undocumented']) undocumented.append(operationView(path, method, op));
  }
  if (undocumented.children.length > 1) sections.push(undocumented);
  filter.addEventListener('input', () => {
    const needle = filter.value.toLowerCase();
    for (const op of document.querySelectorAll('details.op')) op.hidden = needle !== '' && !op.textContent.toLowerCase().includes(needle);
  });
  root.replaceChildren(
    el('header', {},
      el('h1', { text: doc.info.title + ' ' }, el('small', { text: 'v' + doc.info.version + ' · OpenAPI ' + doc.openapi })),
      el('p', { text: doc.info.description }),
      el('p', {}, el('a', { href: specUrl, text: 'openapi.json' }), ' · server ' + ((doc.servers || [])[0] || {}).url),
      el('div', { class: 'bar' }, token, filter)),
    ...sections);
}

fetch(specUrl)
  .then((response) => (response.ok ? response.json() : Promise.reject(new Error(specUrl + ' answered ' + response.status))))
  .then((loaded) => {
    doc = loaded;
    render();
  })
  .catch((error) => root.replaceChildren(el('p', { class: 'error', text: 'Cannot load the API description: ' + error.message })));
`;
