// The dealer screen: renders /api/table and /api/rounds, re-rendering on each server-sent event.
"use strict";

const SUITS = { s: ["♠", false], h: ["♥", true], d: ["♦", true], c: ["♣", false] };
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8],
               6: [0, 2, 3, 5, 6, 8] };

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function money(cents) {
  if (cents === null || cents === undefined) return "";
  return (cents / 100).toFixed(2);
}

function card(code) {
  if (code === "Jk") { const c = el("span", "card red", "JK"); c.title = "joker"; return c; }
  const [symbol, red] = SUITS[code.slice(-1)] || ["?", false];
  const c = el("span", red ? "card red" : "card");
  c.title = code;
  c.append(el("span", "rank", code.slice(0, -1).replace("T", "10")), el("span", "suit", symbol));
  return c;
}

function half(n) {
  const box = el("span", "half");
  const on = PIPS[n] || [];
  const red = n === 1 || n === 4;
  for (let i = 0; i < 9; i++) {
    box.append(el("span", on.includes(i) ? (red ? "pip on red" : "pip on") : "pip"));
  }
  return box;
}

function tile(code) {
  const t = el("span", "tile");
  t.title = code;
  const [a, b] = code.split("-").map(Number);
  t.append(half(a), half(b));
  return t;
}

function piece(code) { return /^\d-\d$/.test(code) ? tile(code) : card(code); }

function pieces(label, codes) {
  const row = el("div", "row");
  row.append(el("span", "label", label));
  for (const code of codes || []) row.append(piece(code));
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
    round.append(el("span", null, ` · round ${view.round_id} · ${view.phase}`));
    if (view.dice) round.append(el("span", null, ` · dice ${view.dice.join("-")}`));
  }
  if (view.replay) round.append(" ", el("span", "replay", "REPLAY"));
}

function renderAlerts(view) {
  const box = document.getElementById("alerts");
  box.textContent = "";
  for (const a of view.alerts) {
    const node = el("div", `alert ${a.kind}${a.critical ? " critical" : ""}`, `${a.kind}: ${a.text}`);
    node.dataset.kind = a.kind;
    box.append(node);
  }
}

function renderDealer(view) {
  const box = document.getElementById("dealer");
  const d = view.dealer;
  box.textContent = "";
  box.append(el("h2", null, `Dealer (position ${d.position})`));
  if (!d.setting) { box.append(el("div", "muted", "not exposed")); return; }
  renderSetting(box, d.setting, "set");
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
    node.append(el("h3", null, `Position ${s.position}${s.banker ? " · bank" : ""}`));
    if (s.wager !== null) {
      const fortune = s.fortune ? ` · Fortune ${money(s.fortune)}` : "";
      node.append(el("div", "bet", `Bet ${money(s.wager)}${fortune}`));
    }
    if (s.setting) renderSetting(node, s.setting);
    else if (s.hand.length) node.append(pieces("hand", s.hand));
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

function renderRecall(rounds) {
  const box = document.getElementById("recall");
  box.textContent = "";
  for (const r of rounds) {
    const li = el("li");
    li.dataset.round = r.round_id;
    if (r.replay) li.append(el("span", "replay", "REPLAY"), " ");
    const seats = r.seats.map(s => `P${s.position} ${s.outcome} ${money(s.net)}`
      + (s.commission ? ` (comm ${money(s.commission)})` : "")).join(" · ");
    li.append(el("span", null, `${r.round_id} (${r.game}): bank ${money(r.banker_net)} · ${seats}`));
    box.append(li);
  }
}

async function refresh() {
  const [table, recall] = await Promise.all([
    fetch("/api/table").then(r => r.json()),
    fetch("/api/rounds?last=10").then(r => r.json()),
  ]);
  renderRound(table); renderAlerts(table); renderDealer(table); renderSeats(table);
  renderRecall(recall.rounds);
  document.body.dataset.seq = table.last_seq ?? "";
}

let pending = null;
function schedule() {  // many records arrive together: render once for the burst
  if (pending) return;
  pending = setTimeout(() => { pending = null; refresh().catch(console.error); }, 30);
}

function connect() {
  const link = document.getElementById("link");
  const source = new EventSource("/api/events");
  source.onopen = () => { link.textContent = "live"; schedule(); };
  source.addEventListener("record", schedule);
  source.onerror = () => { link.textContent = "reconnecting…"; };
}

refresh().catch(console.error);
connect();
