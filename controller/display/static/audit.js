// The supervisor's audit page: a supervisor signs in with staff id and PIN (POST /api/session,
// as the dealer screen's acts.js does) or reuses the session this tab already holds (the dealer
// screen keeps its token in sessionStorage under the same key); then the page asks /api/audit or
// /api/audit/randomness and draws tables; the plots are SVG the server drew.  A journal that
// does not verify is refused (409, the first bad record named) unless "even if the journal
// does not verify" is ticked; such a report opens with a red UNVERIFIED banner.
"use strict";

const AUDIT_TOKEN_KEY = "paigow-token";
let auditOperator = null;  // {actor, name, role, acts} while signed in

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function money(cents) {
  if (cents === null || cents === undefined) return "";
  const sign = cents < 0 ? "-" : "";
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}

function table(columns, rows) {
  if (!rows.length) return el("p", "None.");
  const t = el("table", null, "audit");
  const head = t.createTHead().insertRow();
  for (const c of columns) head.appendChild(el("th", c));
  const body = t.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const cell of row) tr.appendChild(el("td", cell));
  }
  return t;
}

function query() {
  const params = new URLSearchParams();
  for (const [id, key] of [["audit-from", "from"], ["audit-to", "to"],
                           ["audit-dealer", "dealer"], ["audit-shifts", "shifts"]]) {
    const value = document.getElementById(id).value.trim();
    if (value) params.set(key, value);
  }
  if (document.getElementById("audit-unverified").checked) params.set("unverified", "true");
  return params.toString();
}

function say(text, refused) {
  const message = document.getElementById("audit-message");
  message.textContent = text;
  message.className = refused ? "refused" : "";
}

async function call(method, path, body) {
  const headers = body === undefined ? {} : { "Content-Type": "application/json" };
  const token = sessionStorage.getItem(AUDIT_TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  const reply = await fetch(path, { method, headers,
                                    body: body === undefined ? undefined : JSON.stringify(body) });
  let answer = null;
  try { answer = await reply.json(); } catch (err) { answer = { detail: reply.statusText }; }
  return { ok: reply.ok, status: reply.status, answer };
}

function detailText(answer) {
  const detail = answer && answer.detail;
  if (Array.isArray(detail)) {  // FastAPI's 422: one entry per bad field
    return detail.map(d => `${(d.loc || []).filter(p => p !== "query").join(".")}: ${d.msg}`)
      .join("; ");
  }
  return detail || JSON.stringify(answer);
}

async function ask(path) {
  say("working…", false);
  const done = await call("GET", `${path}?${query()}`);
  if (done.status === 401 && auditOperator) {  // the session ended (expired, signed out)
    sessionStorage.removeItem(AUDIT_TOKEN_KEY);
    auditOperator = null;
    showOperator();
  }
  if (!done.ok) {
    say(`refused (${done.status}): ${detailText(done.answer)}`, true);
    document.getElementById("audit-result").replaceChildren();
    return null;
  }
  say("", false);
  return done.answer;
}

function opening(data, ...rest) {  // an unverified report's banner comes first
  const out = document.getElementById("audit-result");
  if (data.unverified) {
    out.replaceChildren(el("p", data.unverified, "unverified banner"), ...rest);
  } else {
    out.replaceChildren(...rest);
  }
  return out;
}

// --- signing in -------------------------------------------------------------------------------

function showOperator() {
  const who = document.getElementById("audit-who");
  if (!auditOperator) {
    who.textContent = "signed out: a supervisor signs in with staff id and PIN";
  } else {
    who.textContent = `signed in: ${auditOperator.name} (${auditOperator.actor}, `
      + `${auditOperator.role})`
      + (auditOperator.role === "supervisor" ? "" : ": the audit is a supervisor's");
  }
  document.getElementById("audit-sign-out").hidden = !auditOperator;
  document.getElementById("audit-sign-in-fields").hidden = !!auditOperator;
}

async function signIn(staff, pin) {
  sessionStorage.removeItem(AUDIT_TOKEN_KEY);
  const done = await call("POST", "/api/session", { staff, pin });
  if (!done.ok) {
    auditOperator = null;
    say(`refused (${done.status}): ${detailText(done.answer)}`, true);
  } else {
    sessionStorage.setItem(AUDIT_TOKEN_KEY, done.answer.token);
    auditOperator = done.answer;
    say(`signed in as ${auditOperator.name}`, false);
  }
  showOperator();
}

async function resume() {  // the session this tab holds (signed in here or on the dealer screen)
  if (!sessionStorage.getItem(AUDIT_TOKEN_KEY)) { showOperator(); return; }
  const done = await call("GET", "/api/operator");
  if (!done.ok) sessionStorage.removeItem(AUDIT_TOKEN_KEY);
  auditOperator = done.ok ? done.answer : null;
  showOperator();
}

async function signOut() {
  const done = await call("DELETE", "/api/session");
  sessionStorage.removeItem(AUDIT_TOKEN_KEY);
  auditOperator = null;
  document.getElementById("audit-result").replaceChildren();
  say(done.ok ? "signed out" : `signed out here (${detailText(done.answer)})`, false);
  showOperator();
}

function plots(target, svgs) {
  for (const svg of svgs) {
    const holder = el("div", null, "plot");
    holder.innerHTML = svg;  // drawn and escaped by the server (controller/audit/svg.py)
    target.appendChild(holder);
  }
}

function showDealers(data) {
  const out = opening(data, el("h2", "Per dealer, shift and table"));
  out.appendChild(table(
    ["dealer", "shift", "table", "rounds", "deviations", "rate", "realized cost",
     "expected cost", "±95%", "rule most often broken", "overrides", "fouls", "corrections",
     "after exposure", "voids"],
    data.groups.map(g => [g.dealer, g.shift, g.table, g.rounds, g.deviations,
                          `${(g.deviation_rate * 100).toFixed(1)}%`, money(g.realized_cents),
                          money(g.expected_cents), money(g.expected_error_cents),
                          g.top_rule ? `${g.top_rule} (${g.top_rule_count})` : "",
                          g.overrides, g.fouls, g.corrections, g.exposed_corrections,
                          g.voids])));
  plots(out, data.plots);
  const titles = {deviation: "Dealer settings off the house way",
                  override: "Asked for the house way, set otherwise", foul: "Foul calls",
                  correction: "Corrections", void: "Voided rounds"};
  for (const [kind, title] of Object.entries(titles)) {
    const rows = data.findings.filter(f => f.kind === kind);
    const section = el("section", null, `findings findings-${kind}`);
    section.appendChild(el("h2", `${title} (${rows.length})`));
    section.appendChild(table(
      ["round", "dealer", "opened", "position", "setting", "house way", "realized",
       "expected", "detail"],
      rows.map(f => [f.round, f.dealer, f.opened, f.position, f.actual, f.house_way,
                     money(f.realized_cents), money(f.expected_cents),
                     [f.rule, f.method, f.detail].filter(Boolean).join("; ")])));
    out.appendChild(section);
  }
}

function showRandomness(data) {
  const verdict = el("p", null);
  verdict.append("Verdict: ", el("span", data.verdict.toUpperCase(),
                                 `verdict-${data.verdict}`));
  const out = opening(data, el("h2", "Randomness"), verdict);
  out.appendChild(table(
    ["test", "n", "statistic", "df", "p-value", "level", "result", "detail"],
    data.checks.map(c => [c.title, c.n, c.statistic === null ? "" : c.statistic.toFixed(2),
                          c.df ?? "", c.p_value === null ? "" : c.p_value.toPrecision(4),
                          `${Math.round(c.level * 100)}%`, c.status, c.detail])));
  plots(out, data.plots);
}

document.getElementById("audit-sign-in").addEventListener("submit", event => {
  event.preventDefault();
  const staff = document.getElementById("audit-staff");
  const pin = document.getElementById("audit-pin");
  signIn(staff.value.trim(), pin.value).catch(err => say(`error: ${err}`, true));
  pin.value = "";
});
document.getElementById("audit-sign-out").addEventListener("click", () => {
  signOut().catch(err => say(`error: ${err}`, true));
});
document.getElementById("audit-filters").addEventListener("submit", async event => {
  event.preventDefault();
  const data = await ask("/api/audit");
  if (data) showDealers(data);
});
document.getElementById("run-randomness").addEventListener("click", async () => {
  const data = await ask("/api/audit/randomness");
  if (data) showRandomness(data);
});
resume().catch(err => say(`error: ${err}`, true));
