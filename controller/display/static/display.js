// The dealer screen: renders /api/table and /api/rounds, re-rendering on each server-sent event.
// Pictures come from pieces.js; the act controls (acts.js) hook in through onView.  Signed out,
// the page reads the table as the public sees it; signed in, it sends the operator's token and
// opens the event stream with a short-lived ticket (an EventSource cannot send headers).
"use strict";

const onView = [];  // functions called with each new table view (acts.js adds one)
const VIEWER_TOKEN_KEY = "paigow-token";  // where acts.js keeps the signed-in operator's token

function viewerHeaders() {
  const token = sessionStorage.getItem(VIEWER_TOKEN_KEY);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

// Our token was refused: its session ended (signed out elsewhere, relieved, expired).  Forget
// it and tell acts.js; the page goes on as the public sees the table.
function sessionLost() {
  sessionStorage.removeItem(VIEWER_TOKEN_KEY);
  document.dispatchEvent(new CustomEvent("paigow-session-ended"));
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function money(cents) {
  if (cents === null || cents === undefined) return "";
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

function pieces(label, codes) {
  const row = el("div", "row");
  row.append(el("span", "label", label));
  for (const code of codes || []) row.append(piecePicture(code));
  return row;
}

function renderSetting(box, setting, label) {
  if (!setting) return;
  box.append(pieces(label ? label + " lo" : "low", setting.low));
  box.append(pieces(label ? label + " hi" : "high", setting.high));
}

function renderRound(view) {
  const round = document.getElementById("round");
  round.textContent = "";
  round.append(el("span", null, `${view.game} · ${view.profile} · house way ${view.house_way}`));
  if (view.round_id) {
    round.append(el("span", null, ` · round ${view.round_id} · `),
                 el("span", "phase", view.phase));
    if (view.dice) round.append(el("span", null, ` · dice ${view.dice.join("-")}`));
    if (view.cut) round.append(el("span", "cut", ` · cut ${view.cut.name}`));
  }
  if (view.replay) round.append(" ", el("span", "replay", "REPLAY"));
  document.getElementById("replay-banner").hidden = !view.replay;
  document.getElementById("seeded-banner").hidden = !view.seeded;
}

function renderAlerts(view) {
  const box = document.getElementById("alerts");
  box.textContent = "";
  for (const a of view.alerts) {
    const node = el("div", `alert ${a.kind}${a.critical ? " critical" : ""}`);
    node.dataset.kind = a.kind;
    node.append(el("span", null, `${a.kind.replace("_", " ")}: ${a.text}`));
    if (a.fault) {
      node.dataset.fault = a.fault;
      const clear = el("button", "clear-fault", "Clear fault");
      clear.dataset.act = "clear_fault";
      clear.dataset.fault = a.fault;
      node.append(" ", clear);
    }
    box.append(node);
  }
}

function renderDealer(view) {
  const box = document.getElementById("dealer");
  const d = view.dealer;
  box.textContent = "";
  if (!d.plays) {
    box.append(el("h2", null, `Dealer (position ${d.position})`),
               el("div", "muted", "deals, plays no hand: home play's pot"));
    return;
  }
  box.append(el("h2", null, `Dealer (position ${d.position})`));
  if (!d.setting) { box.append(el("div", "muted", "not exposed")); return; }
  renderSetting(box, d.setting, "set");
  if (!d.house_way) return;  // the house way is shown to the table's staff only
  const way = el("div", "houseway");
  way.append(el("div", null, `House way (${d.rule}): ${d.house_way.text}`));
  renderSetting(way, d.house_way, "way");
  box.append(way);
  if (d.deviates) box.append(el("div", "alert deviation", "dealer deviates from the house way"));
}

function renderSeats(view) {
  const box = document.getElementById("seats");
  box.textContent = "";
  for (const s of view.seats) {
    const vacant = s.wager === null && !s.banker;
    const node = el("div", `seat${s.banker ? " banker" : ""}${vacant ? " vacant" : ""}`);
    node.id = `seat-${s.position}`;
    const dealer = s.position === 1 && !view.dealer.plays ? " · dealer, no hand" : "";
    node.append(el("h3", null, `Position ${s.position}${s.banker ? " · bank" : ""}`
                               + `${s.offered ? " · offered the bank" : ""}${dealer}`));
    if (s.ante_due !== null && s.wager === null) {
      node.append(el("div", "ante", `ante due ${money(s.ante_due)}`));
    }
    if (s.last_wager !== null && s.wager === null) {
      node.append(el("div", "last-wager muted", `last wager ${money(s.last_wager)}`));
    }
    if (s.wager !== null) {
      const fortune = s.fortune ? ` · Fortune ${money(s.fortune)}` : "";
      node.append(el("div", "bet", `Bet ${money(s.wager)}${fortune}`));
    }
    if (s.setting) renderSetting(node, s.setting);
    else if (s.hand.length) node.append(pieces("hand", s.hand));
    else if (s.face_down) node.append(el("div", "face-down muted", "hand face down"));
    if (s.set_by) node.append(el("div", "muted", `set by ${s.set_by.replace("_", " ")}`));
    if (s.read) node.append(el("div", "muted", `camera: ${s.camera === null ? "unknown" : s.camera}`));
    if (s.result) {
      const r = el("div", `result ${s.result.outcome}`, s.result.text);
      r.dataset.position = s.position;
      node.append(r);
    }
    box.append(node);
  }
}

function renderPlay(view) {
  const show = (id, text) => {
    const node = document.getElementById(id);
    node.hidden = !text;
    node.textContent = text ? text : "";
  };
  show("bank-status", view.bank && `Bank: ${view.bank.text}`);
  show("pot-status", view.pot && `Pot: ${view.pot.text}`);
  show("cut-status", view.cut && `Cut: ${view.cut.text}`);
  const pot = document.getElementById("pot-status");
  if (view.pot) pot.dataset.winner = view.pot.winner ?? "";
  const cut = document.getElementById("cut-status");
  if (view.cut) cut.dataset.cut = view.cut.cut;
}

function renderRecall(rounds) {
  const box = document.getElementById("recall");
  box.textContent = "";
  for (const r of rounds) {
    const li = el("li");
    li.dataset.round = r.round_id;
    if (r.replay) li.append(el("span", "replay", "REPLAY"), " ");
    const seats = r.seats.map(s => `P${s.position} ${s.outcome} ${money(s.net)}`
      + (s.commission ? ` (comm ${money(s.commission)})` : "")).join(" · ");
    const bank = r.banker_net === null || r.banker_net === undefined ? ""  // a pot: no bank
                                                                      : `bank ${money(r.banker_net)} · `;
    li.append(el("span", null, `${r.round_id} (${r.game}): ${bank}${seats}`));
    for (const f of r.frames || []) li.append(" ", frameLink(f));  // the supervisor's only
    box.append(li);
  }
}

// A camera read's kept frame (the supervisor's recall): a click shows it under the round.  An
// <img> sends no header, so it asks with a short-lived ticket; a frame the server refuses (a
// changed file: 409) shows the server's reason instead.
function frameLink(f) {
  const link = el("a", "frame-link", `frame P${f.position}`);
  link.href = f.url;
  link.dataset.file = f.file;
  link.addEventListener("click", event => {
    event.preventDefault();
    showFrame(link, f).catch(console.error);
  });
  return link;
}

async function showFrame(link, f) {
  const li = link.closest("li");
  for (const old of li.querySelectorAll(".frame-shown")) old.remove();
  const box = el("div", "frame-shown");
  box.dataset.file = f.file;
  li.append(box);
  const headers = viewerHeaders();
  const answer = await fetch("/api/events/ticket", { method: "POST", headers });
  if (!answer.ok) { box.append(el("span", "alert", `frame ${f.file}: sign in again`)); return; }
  const ticket = (await answer.json()).ticket;
  const img = el("img", "frame");
  img.alt = `kept frame of position ${f.position}`;
  img.onerror = async () => {
    const refused = await fetch(f.url, { headers });
    const detail = refused.ok ? "could not be shown" : (await refused.json()).detail;
    img.remove();
    box.append(el("span", "alert critical frame-refused", `frame ${f.file}: ${detail}`));
  };
  img.src = `${f.url}?ticket=${encodeURIComponent(ticket)}`;
  box.append(img);
}

let latest = null;  // the last table view rendered
let recallStale = true;  // the recall changes only when a round ends (or we were away)
const ENDS_ROUND = new Set(["settle", "round_voided"]);

async function refresh() {
  const fetchRecall = recallStale;
  recallStale = false;
  const headers = viewerHeaders();
  const [tableReply, recallReply] = await Promise.all([
    fetch("/api/table", { headers }),
    fetchRecall ? fetch("/api/rounds?last=10", { headers }) : null,
  ]);
  if (headers.Authorization && (tableReply.status === 401
                                || (recallReply && recallReply.status === 401))) {
    sessionLost();  // read again as the public
    recallStale = true;
    return refresh();
  }
  const table = await tableReply.json();
  const recall = recallReply ? await recallReply.json() : null;
  latest = table;
  renderRound(table); renderAlerts(table); renderPlay(table); renderDealer(table);
  renderSeats(table);
  if (recall) renderRecall(recall.rounds);
  for (const hook of onView) hook(table);
  document.body.dataset.seq = table.last_seq ?? "";
}

let pending = null;
function schedule() {  // many records arrive together: render once for the burst
  if (pending) return;
  pending = setTimeout(() => { pending = null; refresh().catch(console.error); }, 10);
}

let source = null;  // the open EventSource
let reopening = null;

async function streamUrl() {  // an operator's stream needs a ticket; the public's none
  const headers = viewerHeaders();
  if (!headers.Authorization) return "/api/events";
  const answer = await fetch("/api/events/ticket", { method: "POST", headers });
  if (answer.status === 401) sessionLost();
  if (!answer.ok) return "/api/events";  // a token no longer valid: watch as the public
  return `/api/events?ticket=${encodeURIComponent((await answer.json()).ticket)}`;
}

function reopen(delay) {  // a fresh EventSource (a refused reconnect ends the browser's own)
  if (reopening) return;
  reopening = setTimeout(() => {
    reopening = null;
    connect().catch(err => { console.error(err); reopen(1000); });
  }, delay);
}

async function connect() {
  const link = document.getElementById("link");
  const url = await streamUrl();
  if (source) source.close();
  source = new EventSource(url);
  const mine = source;
  source.onopen = () => { link.textContent = "live"; recallStale = true; schedule(); };
  source.addEventListener("record", event => {
    document.body.dataset.event = event.lastEventId;
    try {
      if (ENDS_ROUND.has(JSON.parse(event.data).kind)) recallStale = true;
    } catch (err) {
      recallStale = true;  // an event we cannot read: read everything again
    }
    schedule();
  });
  source.onerror = () => {
    link.textContent = "reconnecting…";
    if (mine.readyState === EventSource.CLOSED && mine === source) reopen(1000);
  };
}

// Signing in or out (acts.js marks the body's data-role) changes what the page may see.
new MutationObserver(() => { recallStale = true; schedule(); reopen(0); })
  .observe(document.body, { attributes: true, attributeFilter: ["data-role"] });

refresh().catch(console.error);
connect().catch(err => { console.error(err); reopen(1000); });
