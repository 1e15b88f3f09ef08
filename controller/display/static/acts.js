// The act controls: sign in with staff id and PIN (POST /api/session gives a session token,
// kept in sessionStorage), then every act calls the JSON API; the answer (done or refused, with
// the server's reason) shows in #message.  Buttons follow the view's `can`
// lists (the engine's can_x), never a rule of their own.
"use strict";

const TOKEN_KEY = "paigow-token";
let operator = null;  // {actor, name, role, acts} while signed in

const ENDPOINTS = {
  open_round: "open", close_bets: "close-bets", shuffle: "shuffle", deal_packet: "packet",
  build_woodpile: "woodpile", roll: "roll", expose_dealer: "dealer", settle: "settle",
  bank: "bank", void: "void", take_bet: "bets", set_hand: "hands", correct: "correct",
  read_camera: "camera", offer_bank: "offer-bank", decline_bank: "decline-bank", cut: "cut",
  play_house_way: "house-way", repeat_bet: "repeat-bet",
};
const SEAT_ACTS = { take_bet: "take_bet", correct_bet: "correct", set_hand: "set_hand",
                    correct_setting: "correct", read_camera: "read_camera",
                    play_house_way: "play_house_way" };
let cuts = null;  // the catalogue from /api/cuts, read once for a tile table

class InputError extends Error {}

function say(text, refused) {
  const box = document.getElementById("message");
  box.textContent = text;
  box.className = refused ? "refused" : "done";
}

function detailText(body) {
  const detail = body && body.detail;
  if (Array.isArray(detail)) {  // FastAPI's 422: one entry per bad field
    return detail.map(d => `${(d.loc || []).filter(p => p !== "body").join(".")}: ${d.msg}`
      + (d.input !== undefined ? ` (got ${JSON.stringify(d.input)})` : "")).join("; ");
  }
  return detail || JSON.stringify(body);
}

async function call(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers,
                                       body: body === undefined ? undefined : JSON.stringify(body) });
  let answer = null;
  try { answer = await response.json(); } catch (err) { answer = { detail: response.statusText }; }
  return { ok: response.ok, status: response.status, answer };
}

// A 401 while signed in: the session ended (expired, relieved by another dealer).
function sessionEnded(done) {
  if (done.status !== 401 || !operator) return false;
  sessionStorage.removeItem(TOKEN_KEY);
  operator = null;
  showOperator();
  say(`signed out: ${detailText(done.answer)}`, true);
  return true;
}

async function act(name, body) {
  const done = await call("POST", `/api/round/${ENDPOINTS[name]}`, body);
  if (sessionEnded(done)) return false;
  if (!done.ok) {
    say(`refused (${done.status}): ${detailText(done.answer)}`, true);
    return false;
  }
  const kinds = done.answer.records.map(r => r.kind).join(", ");
  say(`done: ${done.answer.act} by ${done.answer.actor} (${done.answer.role}): ${kinds}`, false);
  return true;
}

function cents(text, what) {
  const t = text.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(t)) {
    throw new InputError(`${what} ${JSON.stringify(text)} is not an amount such as 25 or 25.00`);
  }
  const [whole, part = ""] = t.split(".");
  return Number(whole) * 100 + Number(part.padEnd(2, "0"));
}

function position(text, what) {
  if (!/^\d+$/.test(text.trim())) {
    throw new InputError(`${what} ${JSON.stringify(text)} is not a position number`);
  }
  return Number(text.trim());
}

function handBody(text) {  // "LOW / HIGH" is a setting, other text the hand, empty the house way
  const t = text.trim();
  if (!t) return {};
  return t.includes("/") ? { setting: t } : { hand: t };
}

function seatOf(n) { return latest && latest.seats.find(s => s.position === n); }

// The dealer's hand (position 1) is exposed, not set, unless it plays none (home play).
function dealerSets(seat) {
  return latest && seat.position === latest.dealer.position && latest.dealer.plays;
}

async function doSeatAct(name, n) {
  const row = document.getElementById(`entry-${n}`);
  const value = field => row.querySelector(`input[name=${field}]`).value;
  const seat = seatOf(n);
  if (name === "take_bet" || name === "correct_bet") {
    const wager = cents(value("wager"), `position ${n}'s wager`);  // a correction to 0 withdraws
    const fortuneText = row.querySelector("input[name=fortune]") ? value("fortune") : "";
    const fortune = fortuneText.trim() ? cents(fortuneText, `position ${n}'s Fortune bet`) : 0;
    if (name === "take_bet") return act("take_bet", { position: n, wager, fortune });
    return act("correct", { ref: seat.bet_seq, wager, fortune });
  }
  if (name === "set_hand") {
    if (seat && dealerSets(seat)) return act("expose_dealer", handBody(value("setting")));
    return act("set_hand", { position: n, ...handBody(value("setting")) });
  }
  if (name === "play_house_way") {
    const hand = value("setting").trim();
    if (hand.includes("/")) {
      throw new InputError(`the house way sets the hand: give the pieces, not ${JSON.stringify(hand)}`);
    }
    return act("play_house_way", hand ? { position: n, hand } : { position: n });
  }
  if (name === "correct_setting") {
    const setting = value("setting").trim();
    if (!setting.includes("/")) {
      throw new InputError(`setting ${JSON.stringify(setting)} must be LOW / HIGH`);
    }
    if (latest && latest.phase === "exposed") {  // face up: a supervisor's, with a reason
      const reason = (window.prompt(`why is position ${n}'s exposed setting corrected?`) || "").trim();
      if (!reason) throw new InputError("a correction after exposure needs a reason");
      return act("correct", { ref: seat.setting_seq, setting, reason });
    }
    return act("correct", { ref: seat.setting_seq, setting });
  }
  return act("read_camera", { position: n });
}

async function dealAll() {
  for (let i = 0; i < (latest ? latest.positions : 7); i++) {
    if (!await act("deal_packet")) return false;
  }
  return true;
}

async function dealRepeat() {  // "Deal": every position with a last wager bets it again
  const seats = latest ? latest.seats.filter(s => s.acts.includes("repeat_bet")) : [];
  for (const seat of seats) {
    if (!await act("repeat_bet", { position: seat.position })) return false;
  }
  return act("close_bets");
}

function chosenCut() {
  const name = document.getElementById("cut-name").value;
  if (!name) throw new InputError("choose a cut first");
  const options = {};
  for (const box of document.querySelectorAll("#cut-options select")) {
    if (!box.value) throw new InputError(`cut ${name}: choose its ${box.name}`);
    options[box.name] = box.value;
  }
  return { cut: name, options };
}

async function doAct(button) {
  const name = button.dataset.act;
  if (button.dataset.position) return doSeatAct(name, Number(button.dataset.position));
  const value = id => document.getElementById(id).value;
  switch (name) {
    case "open_round": {
      const id = value("round-id").trim();
      return act("open_round", id ? { round_id: id } : {});
    }
    case "deal_all": return dealAll();
    case "deal_repeat": return dealRepeat();
    case "offer_bank": {
      const to = value("offer-position").trim();
      return act("offer_bank", to ? { position: position(to, "bank offer position") } : {});
    }
    case "cut": return act("cut", chosenCut());
    case "expose_dealer": return act("expose_dealer", {});
    case "bank":
      return act("bank", { position: position(value("bank-position"), "bank position"),
                           amount: cents(value("bank-amount"), "bank amount") });
    case "void": return act("void", { reason: value("void-reason") });
    case "clear_fault": {
      const done = await call("POST", `/api/round/faults/${button.dataset.fault}/clear`,
                              { text: "" });
      if (!done.ok) { say(`refused (${done.status}): ${detailText(done.answer)}`, true); return false; }
      say(`done: fault ${button.dataset.fault} cleared by ${done.answer.actor}`, false);
      return true;
    }
    default: return act(name);
  }
}

document.addEventListener("click", event => {
  const button = event.target.closest("button[data-act]");
  if (!button || button.disabled) return;
  event.preventDefault();
  doAct(button).catch(err => say(err instanceof InputError ? `not sent: ${err.message}`
                                                           : `error: ${err}`, true));
});

// --- sign in ------------------------------------------------------------------------------

function showOperator() {
  document.getElementById("who").textContent = operator
    ? `signed in: ${operator.name} (${operator.actor}, ${operator.role})`
    : "read only: sign in with your staff id and PIN to act";
  document.getElementById("sign-out").hidden = !operator;
  document.getElementById("sign-in-fields").hidden = !!operator;
  document.body.dataset.role = operator ? operator.role : "";
  if (latest) updateControls(latest);
}

async function signIn(staff, pin) {
  sessionStorage.removeItem(TOKEN_KEY);
  const done = await call("POST", "/api/session", { staff, pin });
  if (!done.ok) {
    operator = null;
    say(`refused (${done.status}): ${detailText(done.answer)}`, true);
  } else {
    sessionStorage.setItem(TOKEN_KEY, done.answer.token);
    operator = done.answer;
    say(`signed in as ${operator.name} (${operator.actor}, ${operator.role})`, false);
  }
  showOperator();
}

async function resume() {  // a reload: the session this tab holds, if it still stands
  const done = await call("GET", "/api/operator");
  if (!done.ok) sessionStorage.removeItem(TOKEN_KEY);
  operator = done.ok ? done.answer : null;
  showOperator();
}

async function signOut() {
  const done = await call("DELETE", "/api/session");
  sessionStorage.removeItem(TOKEN_KEY);
  operator = null;
  say(done.ok ? "signed out" : `signed out here (${detailText(done.answer)})`, false);
  showOperator();
}

// display.js found the token refused (the session ended elsewhere: signed out on another
// screen, relieved, expired): show the page signed out.
document.addEventListener("paigow-session-ended", () => {
  if (!operator) return;
  operator = null;
  showOperator();
  say("signed out: the session ended (signed out elsewhere, relieved or expired)", true);
});

document.getElementById("sign-in-form").addEventListener("submit", event => {
  event.preventDefault();
  const staff = document.getElementById("staff-id");
  const pin = document.getElementById("pin");
  signIn(staff.value.trim(), pin.value).catch(err => say(`error: ${err}`, true));
  pin.value = "";
});
document.getElementById("sign-out").addEventListener("click", () => {
  signOut().catch(err => say(`error: ${err}`, true));
});

// --- enabling the buttons from the view ---------------------------------------------------

function roleMay(act) { return !operator || operator.acts.includes(act); }

function canNow(view, act) {
  if (operator) return view.can[operator.role].includes(act);
  return view.can.dealer.includes(act) || view.can.supervisor.includes(act);
}

function entryRow(view, n) {
  const row = el("tr");
  row.id = `entry-${n}`;
  row.append(el("th", null, `Position ${n}`));
  const input = (name, hint, size) => {
    const cell = el("td");
    const box = el("input");
    Object.assign(box, { name, placeholder: hint, size });
    box.setAttribute("aria-label", `position ${n} ${name}`);
    cell.append(box);
    return cell;
  };
  const buttons = (...pairs) => {
    const cell = el("td");
    for (const [act, label] of pairs) {
      const b = el("button", null, label);
      b.dataset.act = act;
      b.dataset.position = n;
      cell.append(b, " ");
    }
    return cell;
  };
  row.append(input("wager", "wager 0.00", 8));
  if (view.fortune) row.append(input("fortune", "Fortune 0.00", 8));
  row.append(buttons(["take_bet", "Bet"], ["correct_bet", "Correct bet"]));
  const hint = view.game === "tiles" ? "LOW / HIGH or four tiles; empty: house way"
                                     : "LOW / HIGH; empty: house way";
  row.append(input("setting", hint, 30));
  row.append(buttons(["set_hand", "Set"], ["play_house_way", "Play the house way"],
                     ["correct_setting", "Correct setting"], ["read_camera", "Camera"]));
  return row;
}

function buildEntry(view) {
  const table = document.getElementById("entry");
  if (table.dataset.positions === String(view.positions)
      && table.dataset.fortune === String(view.fortune)) return;
  table.textContent = "";
  for (let n = 1; n <= view.positions; n++) table.append(entryRow(view, n));
  table.dataset.positions = String(view.positions);
  table.dataset.fortune = String(view.fortune);
}

function showCutOptions() {
  const box = document.getElementById("cut-options");
  box.textContent = "";
  const spec = (cuts || []).find(c => c.cut === document.getElementById("cut-name").value);
  for (const [option, values] of Object.entries(spec ? spec.options : {})) {
    const pick = el("select");
    pick.name = option;
    pick.setAttribute("aria-label", `cut ${option}`);
    pick.append(el("option", null, `${option}…`));
    pick.lastChild.value = "";
    for (const v of values) { pick.append(el("option", null, v)); pick.lastChild.value = v; }
    box.append(pick);
  }
}

async function loadCuts() {
  if (cuts) return;
  cuts = [];
  const answer = await fetch("/api/cuts").then(r => r.json());
  cuts = answer.cuts;
  const pick = document.getElementById("cut-name");
  pick.append(el("option", null, "choose…"));
  pick.lastChild.value = "";
  for (const c of cuts) {
    pick.append(el("option", null, `${c.name} (${c.english})`));
    pick.lastChild.value = c.cut;
  }
  pick.addEventListener("change", showCutOptions);
}

function updatePlayControls(view) {
  document.getElementById("repeat-controls").hidden = !view.play.repeat_wager;
  document.getElementById("rotation-controls").hidden = view.play.banking !== "rotation";
  document.getElementById("cut-controls").hidden = view.game !== "tiles";
  if (view.game === "tiles") loadCuts().catch(console.error);
  const bankAt = document.getElementById("bank-position");
  const offer = view.bank && !view.bank.declined && view.bank.offered;
  if (offer && bankAt.dataset.offer !== `${view.round_id}/${offer}`) {
    bankAt.value = String(offer);  // a new offer: the position offered is the one to bank
    bankAt.dataset.offer = `${view.round_id}/${offer}`;
  }
  document.querySelector("#controls .supervisor [data-act=bank]").hidden =
    view.play.mode === "pot";  // no bank at home play
}

function updateControls(view) {
  buildEntry(view);
  updatePlayControls(view);
  const l = view.limits;
  document.getElementById("limits").textContent = `limits: bet ${money(l.min_bet)} to `
    + `${money(l.max_bet)}` + (view.fortune ? `, Fortune ${money(l.fortune_min)} to `
    + `${money(l.fortune_max)}` : "");
  for (const b of document.querySelectorAll("#controls button[data-act], #alerts button")) {
    const act = b.dataset.needs || b.dataset.act;
    if (act === "repeat_bet") {  // a seat-level act: any seat that could repeat its wager
      b.disabled = !(view.seats.some(s => s.acts.includes(act)) && roleMay("take_bet"));
      continue;
    }
    b.disabled = !(canNow(view, act) && roleMay(act));
  }
  document.getElementById("controls").querySelector("[data-act=build_woodpile]").hidden =
    view.game !== "tiles";
  for (const name of ["shuffle", "deal_packet", "deal_all"]) {
    document.querySelector(`#controls [data-act=${name}]`).hidden = view.game === "tiles";
  }
  for (const seat of view.seats) {
    const row = document.getElementById(`entry-${seat.position}`);
    row.className = seat.banker ? "banker" : "";
    row.querySelector("input[name=wager]").placeholder = seat.ante_due !== null
      ? `ante ${money(seat.ante_due)}` : seat.last_wager !== null
        ? `last ${money(seat.last_wager)}` : "wager 0.00";
    for (const b of row.querySelectorAll("button[data-act]")) {
      const act = b.dataset.act;
      const dealer = dealerSets(seat);
      const engineAct = act === "set_hand" && dealer ? "expose_dealer" : SEAT_ACTS[act];
      const offered = act === "set_hand" ? seat.acts.includes(dealer ? "expose_dealer"
                                                                     : "set_hand")
                                         : seat.acts.includes(act);
      b.disabled = !(offered && roleMay(engineAct));
      if (act === "read_camera") b.hidden = !view.camera;
    }
  }
}

onView.push(updateControls);
if (sessionStorage.getItem(TOKEN_KEY)) resume().catch(console.error);
