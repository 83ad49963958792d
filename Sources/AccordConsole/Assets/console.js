// The Accord console: live traffic from GET /__accord/events, the control API's
// flows, and the contracts with a server-signed "try it". Plain JavaScript, no build.
'use strict';

const MAX_ROWS = 2000;
const state = {
  token: sessionStorage.getItem('accord-admin-token') || '',
  rows: [],          // journal entries, oldest first
  lastSequence: null,
  selected: null,
  contract: null,
  accessToken: '',   // from the last login answered through "try it"
};

// ---- small helpers -------------------------------------------------------

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const $ = (selector) => document.querySelector(selector);
const pretty = (value) => JSON.stringify(value, null, 2);

function notify(message, isError = false) {
  const notice = $('#notice');
  notice.textContent = message;
  notice.className = isError ? 'error' : 'ok';
  notice.hidden = false;
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => { notice.hidden = true; }, 4000);
}

// Every control call sends JSON (a header an HTML form cannot send) and the admin token when set.
async function call(method, path, body) {
  const headers = {};
  if (state.token) headers['X-Accord-Admin-Token'] = state.token;
  const options = { method, headers, credentials: 'omit' };
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body ?? {});
  }
  const response = await fetch('/__accord/' + path, options);
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.message || `${method} ${path}: ${response.status}`);
  return answer;
}

async function act(what, work) {
  try {
    await work();
    notify(what);
  } catch (error) {
    notify(error.message, true);
  }
}

const optionalInt = (text) => (text.trim() === '' ? undefined : Number.parseInt(text, 10));

// ---- views ---------------------------------------------------------------

function show(view) {
  for (const tab of document.querySelectorAll('.tab')) tab.setAttribute('aria-selected', String(tab.dataset.view === view));
  for (const section of document.querySelectorAll('.view')) section.hidden = section.id !== 'view-' + view;
  if (view === 'flows') {
    fillSessions();
    refreshFlows();
    refreshConformance();
  }
}

// The sessions the journal has seen, those of a logged-in user first, the latest first.
function fillSessions() {
  const seen = new Map();
  for (const entry of state.rows) seen.set(entry.session, { user: entry.user ?? seen.get(entry.session)?.user, last: entry.seq });
  if (!seen.has('anonymous')) seen.set('anonymous', { user: undefined, last: -1 });
  const sessions = [...seen.entries()].sort(([, a], [, b]) => ((b.user !== undefined) - (a.user !== undefined)) || b.last - a.last);
  const picker = $('#flow-scenario').session;
  const chosen = picker.value;
  picker.replaceChildren(...sessions.map(([name, info]) => el('option', { value: name, text: name + (info.user !== undefined ? ` (user ${info.user})` : '') })));
  if (chosen && seen.has(chosen) && picker.dataset.picked) picker.value = chosen;
}

// ---- live traffic --------------------------------------------------------

function filters() {
  const form = $('#traffic-filters');
  return {
    session: form.session.value.trim(),
    user: form.user.value.trim(),
    endpoint: form.endpoint.value.trim(),
    status: form.status.value.trim().toLowerCase(),
    verdict: form.verdict.value,
  };
}

function admits(entry, filter) {
  if (filter.session && entry.session !== filter.session) return false;
  if (filter.user && String(entry.user ?? '') !== filter.user) return false;
  if (filter.endpoint) {
    const wanted = filter.endpoint;
    const id = entry.endpoint ?? '';
    if (wanted.endsWith('*') ? !id.startsWith(wanted.slice(0, -1)) : id !== wanted) return false;
  }
  if (filter.status) {
    const status = String(entry.status);
    if (filter.status.endsWith('xx') ? status[0] !== filter.status[0] : status !== filter.status) return false;
  }
  if (filter.verdict && entry.verdict !== filter.verdict) return false;
  return true;
}

function row(entry) {
  const time = entry.time.slice(11, 19);
  const flowClass = entry.flow_violations ? ' flow-broken' : '';
  return el('tr', { 'data-seq': entry.seq, class: 'verdict-' + entry.verdict + flowClass, onclick: () => select(entry.seq) },
    el('td', { text: entry.seq }),
    el('td', { text: time }),
    el('td', {}, el('b', { text: entry.method }), ' ', entry.path, entry.endpoint ? el('small', { text: ' ' + entry.endpoint }) : null),
    el('td', { text: entry.status }),
    el('td', { text: entry.code ?? '' }),
    el('td', { text: entry.verdict + (entry.problems ? ` (${entry.problems.length})` : '') + (entry.flow_violations ? ' · flow' : '') }),
    el('td', { text: entry.session }),
    el('td', { text: entry.user ?? '' }));
}

function renderTraffic() {
  const filter = filters();
  const body = $('#traffic tbody');
  body.replaceChildren(...state.rows.filter((entry) => admits(entry, filter)).reverse().map(row));
}

function addEntry(entry) {
  state.rows.push(entry);
  if (state.rows.length > MAX_ROWS) state.rows.splice(0, state.rows.length - MAX_ROWS);
  state.lastSequence = entry.seq;
  scheduleConformance();
  if (admits(entry, filters())) $('#traffic tbody').prepend(row(entry));
  const body = $('#traffic tbody');
  while (body.rows.length > MAX_ROWS) body.deleteRow(body.rows.length - 1);
}

function section(title, content) {
  return el('section', {}, el('h3', { text: title }), content);
}

function code(value) {
  return el('pre', { text: typeof value === 'string' ? value : pretty(value) });
}

function select(sequence) {
  const entry = state.rows.find((candidate) => candidate.seq === sequence);
  if (!entry) return;
  state.selected = sequence;
  for (const line of document.querySelectorAll('#traffic tr.selected')) line.classList.remove('selected');
  document.querySelector(`#traffic tr[data-seq="${sequence}"]`)?.classList.add('selected');
  const detail = $('#detail');
  const parts = [
    el('h2', { text: `#${entry.seq} ${entry.method} ${entry.path}` }),
    el('p', {}, `${entry.endpoint ?? 'no endpoint'} · ${entry.status}${entry.code !== undefined ? ' · code ' + entry.code : ''} · `,
      el('b', { text: entry.verdict }), entry.answer ? ` · answered by ${entry.answer}` : '', entry.injected ? ` · injected by ${entry.injected}` : ''),
  ];
  if (entry.problems) {
    parts.push(section('Violations', el('ul', { class: 'problems' },
      entry.problems.map((problem) => el('li', {}, el('code', { text: problem.pointer || '(whole)' }), ' ', problem.message)))));
  }
  if (entry.flow_violations) {
    parts.push(section('Flow rules broken', el('ul', { class: 'flow-violations' },
      entry.flow_violations.map((violation) => el('li', {}, el('code', { text: `${violation.flow} after #${violation.met}` }), ' ', violation.message)))));
  }
  const answer = entry.response_body;
  const data = answer && typeof answer === 'object' ? answer.data : undefined;
  if (data && typeof data === 'object' && 'string_to_sign' in data) {
    const headers = entry.headers ?? {};
    parts.push(section('Signature (1001)', el('dl', { class: 'signature' },
      el('dt', { text: 'client X-Sign' }), el('dd', {}, el('code', { text: headers['x-sign'] ?? '(none)' })),
      el('dt', { text: 'server sorted_params' }), el('dd', {}, el('code', { text: data.sorted_params ?? '' })),
      el('dt', { text: 'server string_to_sign' }), el('dd', {}, el('code', { text: data.string_to_sign ?? '' })))));
  }
  parts.push(section('Request headers', code(entry.headers ?? {})));
  if (entry.query) parts.push(section('Query', code(entry.query)));
  if (entry.body !== undefined) parts.push(section('Request body', code(entry.body)));
  if (entry.body_omitted_bytes) parts.push(section('Request body', el('p', { text: `${entry.body_omitted_bytes} bytes, not kept` })));
  parts.push(section('Answer', answer !== undefined ? code(answer) : el('p', { text: `${entry.response_bytes ?? 0} bytes` })));
  if (entry.endpoint) parts.splice(2, 0, section('Again', again(entry)));
  detail.replaceChildren(...parts);
  detail.hidden = false;
  detail.closest('.split').classList.add('open');
}

// Copy as cURL and replay: the server signs the entry's request afresh (new time and
// nonce); the token, masked in the journal, is the one given here.
function again(entry) {
  const token = el('input', { name: 'replay-token', value: state.accessToken, placeholder: 'access token, if the endpoint needs one' });
  const output = el('pre', { id: 'curl-line', hidden: true });
  const body = (curl) => ({ seq: entry.seq, token: token.value.trim() || undefined, curl });
  const copy = el('button', { type: 'button', id: 'copy-curl', text: 'Copy as cURL', onclick: () => act('copied as cURL (signed)', async () => {
    const answer = await call('POST', 'replay', body(true));
    output.textContent = answer.curl;
    output.hidden = false;
    await navigator.clipboard?.writeText(answer.curl).catch(() => {});
  }) });
  const replay = el('button', { type: 'button', id: 'replay', text: 'Replay', onclick: async () => {
    try {
      const answer = await call('POST', 'replay', body(false));
      notify(`replayed #${entry.seq}: ${answer.response.status}${answer.response.body?.code !== undefined ? ' code ' + answer.response.body.code : ''}`);
    } catch (error) {
      notify(error.message, true);
    }
  } });
  return el('div', { class: 'again' }, el('label', {}, 'Token', token), el('div', { class: 'buttons' }, copy, replay), output);
}

// Server-sent events read with fetch, so that the admin token can go in a header.
async function stream() {
  const status = $('#stream-status');
  for (;;) {
    try {
      const headers = {};
      if (state.token) headers['X-Accord-Admin-Token'] = state.token;
      if (state.lastSequence !== null) headers['Last-Event-ID'] = String(state.lastSequence);
      const response = await fetch('/__accord/events?replay=500', { headers, credentials: 'omit' });
      if (!response.ok) {
        const answer = await response.json().catch(() => ({}));
        throw new Error(answer.message || `events: ${response.status}`);
      }
      status.textContent = 'live';
      status.className = 'status live';
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
      status.textContent = 'reconnecting…';
    } catch (error) {
      status.textContent = error.message;
      status.className = 'status error';
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function dispatch(block) {
  let event = 'message';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data += line.slice(5).trimStart();
  }
  if (event === 'request' && data) addEntry(JSON.parse(data));
  else if (event === 'dropped' && data) notify(`${JSON.parse(data).dropped} requests were too many to show`, true);
}

// ---- flows ---------------------------------------------------------------

async function refreshFlows() {
  try {
    const [clock, rules] = await Promise.all([call('GET', 'clock'), call('GET', 'rules')]);
    $('#clock-now').textContent = clock.now + (clock.offset_seconds ? ` (${clock.offset_seconds > 0 ? '+' : ''}${clock.offset_seconds}s)` : '');
    $('#rules tbody').replaceChildren(...rules.rules.map((rule) => el('tr', {},
      el('td', { text: rule.id }),
      el('td', { text: rule.match.endpoint + (rule.match.user !== undefined ? ` user ${rule.match.user}` : '') + (rule.match.session ? ` session ${rule.match.session}` : '') }),
      el('td', { text: rule.fault ?? String(rule.respond?.code) }),
      el('td', { text: rule.times_left ?? '∞' }),
      el('td', { text: rule.seen }),
      el('td', {}, el('button', { type: 'button', text: 'Delete', onclick: () => act(`rule ${rule.id} deleted`, async () => { await call('DELETE', 'rules/' + rule.id); await refreshFlows(); }) })))));
  } catch (error) {
    notify(error.message, true);
  }
}

// What the flow rules found (`accord serve --check-flows`): the cells of the matrix the
// traffic met, each kept or with the violations, read from the report as traffic arrives.
let conformanceTimer;
function scheduleConformance() {
  if (conformanceTimer || $('#view-flows').hidden) return;
  conformanceTimer = setTimeout(() => {
    conformanceTimer = undefined;
    refreshConformance();
  }, 250);
}

async function refreshConformance() {
  try {
    const flows = (await call('GET', 'report')).flows;
    const summary = $('#conformance-summary');
    if (!flows) {
      summary.textContent = 'start accord serve with --check-flows to see it';
      $('#conformance tbody').replaceChildren();
      return;
    }
    summary.textContent = `${flows.exercised} of ${flows.declared} cells met, ${flows.violations} violation${flows.violations === 1 ? '' : 's'}`;
    const met = flows.matrix.filter((cell) => cell.exercised > 0 || cell.violations.length > 0);
    $('#conformance tbody').replaceChildren(...met.map((cell) => el('tr', { class: cell.violations.length ? 'broken' : undefined },
      el('td', { text: cell.endpoint }),
      el('td', { text: cell.flow }),
      el('td', { text: String(cell.exercised) }),
      el('td', {}, cell.violations.length ? cell.violations.map((violation) => el('div', { text: violation.message })) : 'kept'))));
  } catch (error) {
    notify(error.message, true);
  }
}

function wireFlows() {
  const tokens = $('#flow-tokens');
  for (const kind of ['expire', 'invalidate']) {
    tokens.querySelector(`[data-action="${kind}"]`).addEventListener('click', () => act(`access tokens ${kind}d`, async () => {
      const answer = await call('POST', 'tokens/' + kind, { uid: optionalInt(tokens.uid.value) });
      notify(pretty(answer));
    }));
  }
  const user = $('#flow-user');
  const uid = () => {
    const value = optionalInt(user.uid.value);
    if (value === undefined || Number.isNaN(value)) throw new Error('give a user id');
    return value;
  };
  user.querySelector('[data-action="ban"]').addEventListener('click', () => act('banned', () =>
    call('POST', `users/${uid()}/ban`, { reason: user.reason.value || 'banned from the console', until: user.until.value || undefined })));
  user.querySelector('[data-action="unban"]').addEventListener('click', () => act('ban lifted', () => call('DELETE', `users/${uid()}/ban`)));
  user.querySelector('[data-action="logout"]').addEventListener('click', () => act('logged out', () => call('POST', `users/${uid()}/force-logout`)));

  const clock = $('#flow-clock');
  clock.querySelector('[data-action="advance"]').addEventListener('click', () => act('clock moved', async () => {
    await call('POST', 'clock', { advance: clock.advance.value.trim() });
    await refreshFlows();
  }));
  clock.querySelector('[data-action="set"]').addEventListener('click', () => act('clock set', async () => {
    await call('POST', 'clock', { set: optionalInt(clock.set.value) });
    await refreshFlows();
  }));

  const scenario = $('#flow-scenario');
  scenario.querySelector('[data-action="start"]').addEventListener('click', () => act('scenario started', () =>
    call('POST', `sessions/${encodeURIComponent(scenario.session.value || 'anonymous')}/scenario`, { name: scenario.name.value })));
  scenario.session.addEventListener('change', () => { scenario.session.dataset.picked = 'yes'; });

  const rule = $('#flow-rule');
  rule.querySelector('[data-action="add"]').addEventListener('click', () => act('rule added', async () => {
    const match = { endpoint: rule.endpoint.value };
    if (rule.user.value.trim()) match.user = optionalInt(rule.user.value);
    if (rule.session.value.trim()) match.session = rule.session.value.trim();
    const body = { match };
    const answer = rule.respond.value;
    if (answer.startsWith('fault:')) body.fault = answer.slice(6); else body.respond = { code: Number(answer) };
    if (rule.times.value.trim()) body.times = optionalInt(rule.times.value);
    if (rule.probability.value.trim()) body.probability = Number(rule.probability.value);
    if (rule.after.value.trim()) body.after = optionalInt(rule.after.value);
    await call('POST', 'rules', body);
    await refreshFlows();
  }));
  $('#clear-rules').addEventListener('click', () => act('rules deleted', async () => { await call('DELETE', 'rules'); await refreshFlows(); }));
  $('#reset').addEventListener('click', () => act('reset', async () => {
    await call('POST', 'reset');
    state.rows = [];
    renderTraffic();
    await refreshFlows();
  }));
}

function fillPickers(contract) {
  const endpoints = $('#rule-endpoint');
  const options = [];
  for (const domain of contract.domains) {
    options.push(el('option', { value: domain.name + '.*', text: domain.name + '.* (every endpoint)' }));
    for (const endpoint of domain.endpoints) options.push(el('option', { value: endpoint.id, text: `${endpoint.id} — ${endpoint.method} ${endpoint.path}` }));
  }
  endpoints.replaceChildren(...options);
  const codes = contract.codes.filter((entry) => entry.code !== 0).map((entry) =>
    el('option', { value: entry.code, text: `${entry.code} ${entry.name}${entry.flow !== 'none' ? ' → ' + entry.flow : ''} (${entry.message})` }));
  const faults = ['reset', 'empty', 'malformed', 'slow', 'latency:2s', '500', '503'].map((fault) => el('option', { value: 'fault:' + fault, text: 'fault: ' + fault }));
  $('#rule-code').replaceChildren(...codes, ...faults);
  $('#traffic-filters').verdict.replaceChildren(el('option', { value: '', text: 'any verdict' }),
    ...contract.verdicts.map((verdict) => el('option', { value: verdict, text: verdict })));
  $('#flow-scenario').name.replaceChildren(...contract.scenarios.map((name) => el('option', { value: name, text: name })));
}

// ---- contracts -----------------------------------------------------------

function renderEndpoints(contract) {
  $('#endpoints').replaceChildren(...contract.domains.map((domain) => el('details', { open: true },
    el('summary', { text: `${domain.name} (${domain.endpoints.length})` }),
    el('ul', {}, domain.endpoints.map((endpoint) => el('li', {},
      el('button', { type: 'button', class: 'link', 'data-endpoint': endpoint.id, onclick: () => showEndpoint(endpoint) },
        el('b', { text: endpoint.method }), ' ', endpoint.path, endpoint.deprecated ? ' (deprecated)' : '')))))));
}

function fieldList(fields) {
  return fields.length ? el('ul', {}, fields.map((field) => el('li', {}, el('code', { text: field.name + (field.optional ? '?' : '') }), ': ', typeView(field.type)))) : el('p', { text: 'none' });
}

// A type as written (`Signal`, `[Signal]`, `Page<Match>`); a named one opens to its members.
function typeView(text) {
  const list = /^\[(.*)\]$/.exec(text);
  if (list) return el('span', {}, '[', typeView(list[1]), ']');
  const type = state.contract?.types?.[text];
  if (!type) return el('code', { text });
  const details = el('details', { class: 'type', 'data-type': text }, el('summary', {}, el('code', { text })));
  details.addEventListener('toggle', () => {
    if (!details.open || details.childElementCount > 1) return;
    if (type.kind === 'object') details.append(fieldList(type.fields));
    else if (type.kind === 'enum') details.append(el('p', { text: 'one of ' + type.values.join(', ') }));
    else if (type.kind === 'union') details.append(el('ul', {}, type.shapes.map((shape) => el('li', {}, el('code', { text: `${type.discriminator}: ${shape.value}` }), ' → ', typeView(shape.type)))));
    else details.append(el('p', {}, '= ', typeView(type.of)));
  }, { once: false });
  return details;
}

function showEndpoint(endpoint) {
  const example = endpoint.examples.find((candidate) => candidate.code === 0) ?? endpoint.examples[0] ?? {};
  const form = el('form', { class: 'try' },
    el('label', {}, 'Path parameters', el('textarea', { name: 'params', rows: 2, text: pretty(example.params ?? {}) })),
    el('label', {}, 'Query', el('textarea', { name: 'query', rows: 2, text: pretty(example.query ?? {}) })),
    endpoint.body ? el('label', {}, 'Body', el('textarea', { name: 'body', rows: 6, text: pretty(example.body ?? {}) })) : null,
    el('label', {}, 'Headers (the contract\'s values; signing headers are added)', el('textarea', { name: 'headers', rows: 4, text: pretty(state.contract?.headers ?? {}) })),
    endpoint.auth ? el('label', {}, 'Access token', el('input', { name: 'token', value: state.accessToken, placeholder: 'sign in through an auth endpoint first' })) : null,
    el('label', {}, 'Session', el('input', { name: 'session', value: 'console' })),
    el('button', { type: 'submit', id: 'try-send', text: 'Send signed request' }));
  const result = el('div', { id: 'try-result' });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    act('answered', async () => {
      const parse = (name) => (form[name] && form[name].value.trim() ? JSON.parse(form[name].value) : undefined);
      const answer = await call('POST', 'try', {
        endpoint: endpoint.id, params: parse('params'), query: parse('query'), body: endpoint.body ? parse('body') : undefined, headers: parse('headers'),
        token: form.token ? form.token.value.trim() : undefined, session: form.session.value.trim(),
      });
      const data = answer.response.body?.data;
      if (data && typeof data === 'object' && typeof data.access_token === 'string') state.accessToken = data.access_token;
      result.replaceChildren(section('Sent', code(answer.request)), section(`Answer ${answer.response.status}`, code(answer.response.body)));
    });
  });
  $('#endpoint').replaceChildren(
    el('h2', { text: `${endpoint.method} ${endpoint.path}` }),
    el('p', {}, el('code', { text: endpoint.id }), endpoint.summary ? ' — ' + endpoint.summary : '', endpoint.auth ? ' · signed in' : ' · no sign-in'),
    section('Path parameters', fieldList(endpoint.params)),
    section('Query', fieldList(endpoint.query)),
    section('Body', el('div', {}, endpoint.body ? typeView(endpoint.body) : endpoint.multipart ? `multipart: ${endpoint.multipart.join(', ')}` : 'none')),
    section('Answer', el('div', {}, typeView(endpoint.response))),
    section('Codes', el('p', { text: endpoint.codes.join(', ') || 'the service codes' })),
    section('Fixtures', el('p', { text: endpoint.fixtures.join(', ') || 'none' })),
    section('Examples', endpoint.examples.length ? endpoint.examples.map((item) => el('details', {}, el('summary', { text: `${item.name} (code ${item.code})` }), code(item))) : el('p', { text: 'none' })),
    section('Try it', form), result);
  $('#endpoint').hidden = false;
}

// ---- start ---------------------------------------------------------------

async function start() {
  const tokenInput = $('#admin-token');
  tokenInput.value = state.token;
  tokenInput.addEventListener('change', () => {
    state.token = tokenInput.value;
    sessionStorage.setItem('accord-admin-token', state.token);
    load();
  });
  for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => show(tab.dataset.view));
  $('#traffic-filters').addEventListener('input', renderTraffic);
  $('#traffic-filters').addEventListener('submit', (event) => event.preventDefault());
  $('#clear-traffic').addEventListener('click', () => {
    if (!confirm('Clear the journal of this server? Every request so far goes, for every console and report reader.')) return;
    act('journal cleared', async () => {
      await call('DELETE', 'requests');
      state.rows = [];
      renderTraffic();
      $('#detail').hidden = true;
      $('#detail').closest('.split').classList.remove('open');
    });
  });
  wireFlows();
  await load();
  stream();
}

async function load() {
  try {
    state.contract = await call('GET', 'contract');
    fillPickers(state.contract);
    renderEndpoints(state.contract);
  } catch (error) {
    notify(error.message, true);
  }
}

document.addEventListener('DOMContentLoaded', start);
