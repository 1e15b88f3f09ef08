// The supervisor's audit page: asks /api/audit or /api/audit/randomness with the supervisor's
// token (kept in sessionStorage like the dealer screen's) and draws tables; the plots are SVG
// the server drew.
"use strict";

const AUDIT_TOKEN_KEY = "paigow-token";

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
  return params.toString();
}

async function ask(path) {
  const message = document.getElementById("audit-message");
  const token = sessionStorage.getItem(AUDIT_TOKEN_KEY);
  const headers = token ? {Authorization: `Bearer ${token}`} : {};
  message.textContent = "working…";
  const reply = await fetch(`${path}?${query()}`, {headers});
  const body = await reply.json();
  if (!reply.ok) {
    message.textContent = `refused: ${body.detail || reply.status}`;
    return null;
  }
  message.textContent = "";
  return body;
}

function plots(target, svgs) {
  for (const svg of svgs) {
    const holder = el("div", null, "plot");
    holder.innerHTML = svg;  // drawn and escaped by the server (controller/audit/svg.py)
    target.appendChild(holder);
  }
}

function showDealers(data) {
  const out = document.getElementById("audit-result");
  out.replaceChildren(el("h2", "Per dealer, shift and table"));
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
  const out = document.getElementById("audit-result");
  const verdict = el("p", null);
  verdict.append("Verdict: ", el("span", data.verdict.toUpperCase(),
                                 `verdict-${data.verdict}`));
  out.replaceChildren(el("h2", "Randomness"), verdict);
  out.appendChild(table(
    ["test", "n", "statistic", "df", "p-value", "level", "result", "detail"],
    data.checks.map(c => [c.title, c.n, c.statistic === null ? "" : c.statistic.toFixed(2),
                          c.df ?? "", c.p_value === null ? "" : c.p_value.toPrecision(4),
                          `${Math.round(c.level * 100)}%`, c.status, c.detail])));
  plots(out, data.plots);
}

document.getElementById("audit-sign-in").addEventListener("submit", event => {
  event.preventDefault();
  sessionStorage.setItem(AUDIT_TOKEN_KEY, document.getElementById("audit-token").value.trim());
  document.getElementById("audit-message").textContent = "token set";
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
