// ddz-fast serve: the page.  Plain JavaScript, no build step.  The server
// decides everything (legal moves, the agents, the score); the page draws
// what its seat is sent and posts the index of the chosen action (and, for a
// move, its text, which the server checks against its own list).
"use strict";

// JavaScript errors are collected and shown (the browser tests read them).
window.ddzErrors = [];
function reportError(text) {
  window.ddzErrors.push(text);
  const box = document.getElementById("errors");
  if (box) { box.hidden = false; box.textContent = window.ddzErrors.join("\n"); }
}
window.addEventListener("error", (e) => reportError("error: " + e.message));
window.addEventListener("unhandledrejection", (e) => reportError("unhandled: " + (e.reason && e.reason.message || e.reason)));

const $ = (id) => document.getElementById(id);
const SUITS = [["\u2660", false], ["\u2665", true], ["\u2663", false], ["\u2666", true]];
let config = null;      // /api/config
let view = null;        // the current seat view
let selected = new Set();   // indices into view.hand
let chosen = null;      // the index of the reading chosen when the selected cards make several moves

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

let inflight = 0;    // requests under way (the page is "busy" while any is)

async function api(method, path, body, raw) {
  inflight += 1;
  document.body.dataset.busy = "1";
  try {
    const opts = { method, headers: {} };
    if (body !== undefined) {
      opts.body = raw ? body : JSON.stringify(body);
      opts.headers["Content-Type"] = raw ? "text/plain" : "application/json";
    }
    const r = await fetch(path, opts);
    const data = await r.json();
    if (!r.ok) { say(data.error || ("request failed: " + r.status)); return null; }
    say("");
    return data;
  } catch (e) {
    say("the server did not answer: " + e.message);
    return null;
  } finally {
    inflight -= 1;
    document.body.dataset.busy = inflight ? "1" : "0";
  }
}

function say(text) { $("message").textContent = text; }

// ---------------------------------------------------------------------------
// Cards: drawn from rank labels; suits are for display only
// ---------------------------------------------------------------------------

function rankInfo(label) {
  return (config && config.ranks.find((r) => r.label === label)) || { label, name: label, joker: false };
}

// One card element; ``copy`` (the k-th card of its rank) picks the suit drawn;
// ``wild`` marks a card of a wild rank.
function cardEl(label, copy, wild) {
  const info = rankInfo(label);
  const el = document.createElement("div");
  el.className = "card";
  el.dataset.rank = label;
  if (wild) { el.classList.add("wild"); el.dataset.wild = "1"; }
  const rank = document.createElement("span");
  rank.className = "rank";
  if (info.joker) {
    el.classList.add("joker");
    if (label === "R") el.classList.add("red");
    rank.textContent = "JOKER";
    el.title = info.name;
  } else {
    const [suit, red] = SUITS[copy % SUITS.length];
    if (red) el.classList.add("red");
    rank.textContent = info.name;
    const s = document.createElement("span");
    s.className = "suit";
    s.textContent = suit;
    el.appendChild(s);
    el.title = info.name + suit;
  }
  el.prepend(rank);
  return el;
}

// Cards from their labels; those of the ``wild`` ranks (labels) are marked.
function drawCards(container, labels, wild) {
  container.textContent = "";
  const seen = {};
  (labels || []).forEach((label, i) => {
    seen[label] = (seen[label] || 0) + 1;
    const el = cardEl(label, seen[label] - 1, !!wild && wild.includes(label));
    el.dataset.i = String(i);
    container.appendChild(el);
  });
}

// Labels as text (10 for T), e.g. the reading of a wild move.
function labelsText(labels) { return labels.map((l) => rankInfo(l).joker ? l : rankInfo(l).name).join(" "); }

// A move's kind in words; under wild rules a bomb says its class (soft, hard, wild).
function kindText(a, wild) {
  const kind = a.kind.toLowerCase().replace(/_/g, " ");
  return wild && a.kind === "BOMB" && a.bomb_class ? a.bomb_class + " bomb" : kind;
}

// An action in words: a move's text (cards=reading for a wild reading) and kind.
function actionText(a, wild) {
  if (!a) return "";
  if (a.type === "move") return a.kind === "PASS" ? "pass" : a.text + " (" + kindText(a, wild) + ")";
  return a.text;
}

// What a reading reads as, in words: "as 5 5 5 5 (soft bomb)".
function readingText(m, wild) {
  return "as " + labelsText(m.reads || m.cards) + " (" + kindText(m, wild) + ")";
}

function drawAction(container, a, wild) {
  container.textContent = "";
  if (!a) return;
  if (a.type === "move" && a.kind !== "PASS") {
    drawCards(container, a.cards, wild);
    if (a.reads) {                   // a wild card stood in: what the cards were read as
      const r = document.createElement("span");
      r.className = "reads";
      r.textContent = "= " + labelsText(a.reads);
      container.appendChild(r);
    }
    return;
  }
  const s = document.createElement("span");
  s.className = "passed";
  s.textContent = a.type === "move" ? "pass" : a.text;
  container.appendChild(s);
}

// ---------------------------------------------------------------------------
// Play
// ---------------------------------------------------------------------------

function seatName(s) { return view.names[s]; }

function roleOf(s) {
  if (view.landlord === null || view.landlord === undefined) return "";
  return s === view.landlord ? "landlord" : "farmer";
}

// The view's legal moves by their cards (a wild lead may list thousands):
// built once a view, on the first selection.
let movesByCards = null;

// The legal moves whose cards are exactly the selected cards.
function matchingMoves() {
  if (!movesByCards) {
    movesByCards = new Map();
    view.legal.forEach((m) => {
      if (m.kind === "PASS") return;
      const key = [...m.cards].sort().join(",");
      if (!movesByCards.has(key)) movesByCards.set(key, []);
      movesByCards.get(key).push(m);
    });
  }
  return movesByCards.get([...selected].map((i) => view.hand[i]).sort().join(",")) || [];
}

function renderSelection() {
  const hand = $("hand");
  hand.querySelectorAll(".card").forEach((el) => el.classList.toggle("selected", selected.has(Number(el.dataset.i))));
  const info = $("selection-info");
  info.textContent = "";
  hand.classList.remove("legal", "illegal");
  const playing = view && view.your_turn && view.phase === "PLAY";
  let moves = [];
  if (playing && selected.size) {
    moves = matchingMoves();
    hand.classList.add(moves.length ? "legal" : "illegal");
    if (moves.length === 1) {
      info.innerHTML = '<span class="ok"></span>';
      info.firstChild.textContent = actionText(moves[0], view.wild);
    } else if (moves.length > 1) {
      // several moves (kinds, or readings of wild cards): the player picks one, then Play
      if (!moves.some((m) => m.index === chosen)) chosen = null;
      info.textContent = chosen === null ? "these cards make several moves, choose one: " : "these cards make several moves: ";
      moves.forEach((m) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "reading-choice" + (m.index === chosen ? " chosen" : "");
        b.dataset.index = String(m.index);
        b.dataset.text = m.text;
        b.textContent = view.wild ? readingText(m, view.wild) : kindText(m, view.wild);
        b.addEventListener("click", () => { chosen = m.index; renderSelection(); });
        info.appendChild(b);
      });
    } else {
      info.innerHTML = '<span class="bad">not a legal move now</span>';
    }
  }
  const move = moves.length === 1 ? moves[0] : moves.find((m) => m.index === chosen);
  $("play").disabled = !(playing && move);
  $("play").dataset.index = move ? String(move.index) : "";
}

function render() {
  movesByCards = null;
  document.body.dataset.phase = view.phase;
  document.body.dataset.yourTurn = view.your_turn ? "1" : "0";
  $("setup").hidden = view.result === null;
  $("table").hidden = false;
  const n = view.players;
  const me = view.seat;
  // the opponents, in play order after me
  const opp = $("opponents");
  opp.textContent = "";
  for (let k = 1; k < n; k++) {
    const s = (me + k) % n;
    const box = document.createElement("div");
    box.className = "opponent" + (view.to_move === s ? " to-move" : "");
    box.id = "seat-" + s;
    const head = document.createElement("div");
    head.innerHTML = '<span class="name"></span> <span class="role"></span>';
    head.querySelector(".name").textContent = seatName(s);
    const role = roleOf(s);
    head.querySelector(".role").textContent = role;
    head.querySelector(".role").classList.toggle("landlord", role === "landlord");
    const count = document.createElement("div");
    count.innerHTML = '<span class="count"></span> cards';
    count.querySelector(".count").id = "count-" + s;
    count.querySelector(".count").textContent = String(view.hand_sizes[s]);
    const last = document.createElement("div");
    last.className = "cards small last-action";
    last.id = "trick-" + s;
    box.append(head, count, last);
    opp.appendChild(box);
  }
  // this round: each seat's latest action in it
  const latest = {};
  view.trick.forEach((e) => { latest[e.seat] = e; });
  if (view.phase === "AUCTION" || view.phase === "DOUBLING") view.history.forEach((e) => { latest[e.seat] = e; });
  for (let s = 0; s < n; s++) {
    const box = s === me ? $("my-trick") : $("trick-" + s);
    drawAction(box, latest[s], view.wild);
  }
  $("my-name").textContent = "You (seat " + me + ")";
  const myRole = roleOf(me);
  $("my-role").textContent = myRole;
  $("my-role").classList.toggle("landlord", myRole === "landlord");
  document.querySelector(".me").classList.toggle("to-move", view.to_move === me);
  drawCards($("hand"), view.hand, view.wild);
  drawCards($("kitty"), view.kitty || [], view.wild);
  if (!view.kitty) $("kitty").textContent = "(face down)";
  drawWild($("wild-box"), $("wild"), view.wild, config.presets.find((p) => p.name === view.preset.split("+")[0]));
  $("stake").textContent = (view.base ? "stake " + view.stake + " (base " + view.base + ", bombs " + view.bombs +
    (view.doubles ? ", doubles " + view.doubles : "") + ")" : "stake: set by the auction") +
    (view.deal_number ? "; redeal " + view.deal_number : "");
  let status;
  if (view.result) status = "The deal is over";
  else if (view.your_turn) status = view.phase === "PLAY" ? (view.can_pass ? "Your turn: beat it or pass" : "Your turn: lead") :
    (view.phase === "DOUBLING" ? "Double the stake?" : "The auction: your call");
  else status = "Waiting for " + (view.to_move === null ? "-" : seatName(view.to_move));
  $("status").textContent = status;
  // auction or doubling options
  const opts = $("auction-options");
  opts.textContent = "";
  if (view.your_turn) {
    view.options.forEach((o) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "auction-option";
      b.dataset.index = String(o.index);
      b.textContent = o.text;
      b.addEventListener("click", () => sendAction(o.index));
      opts.appendChild(b);
    });
  }
  const playing = view.your_turn && view.phase === "PLAY";
  $("pass").disabled = !(playing && view.can_pass);
  $("hint").disabled = !view.your_turn;
  selected = new Set([...selected].filter((i) => i < view.hand.length));
  renderSelection();
  // the log of the deal
  const log = $("log");
  log.textContent = "";
  view.history.forEach((e) => {
    const li = document.createElement("li");
    li.textContent = seatName(e.seat) + ": " + actionText(e, view.wild);
    log.appendChild(li);
  });
  // the session score
  $("totals").textContent = "Session score after " + view.deals + " deal" + (view.deals === 1 ? "" : "s") + ": " +
    view.totals.map((t, s) => (s === me ? "you" : "seat " + s) + " " + (t > 0 ? "+" : "") + t).join(", ");
  // the result
  $("result").hidden = !view.result;
  if (view.result) {
    const r = view.result;
    const mine = r.scores[me];
    $("result-title").textContent = (r.landlord_won ? "The landlord wins" : "The farmers win") +
      (mine > 0 ? ": you win " + mine : ": you lose " + (-mine));
    $("result-explain").textContent = r.explain + (r.spring === 1 ? " (spring: no farmer played a card)" :
      r.spring === 2 ? " (anti-spring: the landlord played only the opening lead)" : "");
    const t = $("result-scores");
    t.textContent = "";
    r.scores.forEach((sc, s) => {
      const tr = document.createElement("tr");
      tr.innerHTML = "<td></td><td></td>";
      tr.children[0].textContent = seatName(s) + (s === r.landlord ? " (landlord)" : "");
      tr.children[1].textContent = (sc > 0 ? "+" : "") + sc;
      t.appendChild(tr);
    });
  }
}

async function sendAction(index) {
  if (!view) return;
  const body = { index, ply: view.ply };
  // a move goes with its text and kind: the server checks both name the same legal move
  const m = view.phase === "PLAY" && view.legal.find((x) => x.index === index);
  if (m && m.kind !== "PASS") { body.move = m.text; body.kind = m.kind; }
  const v = await api("POST", "/api/games/" + view.id + "/action", body);
  if (v) { view = v; selected.clear(); chosen = null; render(); }
}

// The wild ranks (shown once drawn; before the draw, that the rules will draw them).
function drawWild(box, cards, wild, preset) {
  const drawing = preset && preset.wild > 0;
  box.hidden = !wild && !drawing;
  drawCards(cards, wild || [], wild);
  if (!wild && drawing) cards.textContent = "(drawn when the landlord takes the kitty)";
}

async function startGame() {
  const body = { preset: $("preset").value, level: $("level").value, seat: Number($("seat").value) };
  // ?seed=N in the page's address replays the same deals (for tests, or to share a deal)
  const seed = new URLSearchParams(window.location.search).get("seed");
  if (seed !== null && /^[0-9]+$/.test(seed)) body.seed = Number(seed);
  if ($("auction").value) body.auction = $("auction").value;
  const v = await api("POST", "/api/games", body);
  if (v) { view = v; selected.clear(); chosen = null; render(); }
}

function fillSeats() {
  const p = config.presets.find((x) => x.name === $("preset").value);
  const seat = $("seat");
  seat.textContent = "";
  for (let s = 0; s < p.players; s++) seat.add(new Option(String(s), String(s)));
}

function onHandClick(ev) {
  const el = ev.target.closest(".card");
  if (!el || !view || !view.your_turn || view.phase !== "PLAY") return;
  const i = Number(el.dataset.i);
  if (selected.has(i)) selected.delete(i); else selected.add(i);
  chosen = null;
  renderSelection();
}

async function onHint() {
  const h = await api("POST", "/api/games/" + view.id + "/hint");
  if (!h) return;
  if (h.type !== "move") {
    document.querySelectorAll(".auction-option").forEach((b) => b.classList.toggle("hinted", b.dataset.index === String(h.index)));
    say("hint: " + h.text);
    return;
  }
  if (h.kind === "PASS") { selected.clear(); renderSelection(); say("hint: pass"); return; }
  // select the hinted cards in the hand, lowest copies first, and the hinted reading
  selected.clear();
  chosen = h.index;
  const want = {};
  h.cards.forEach((c) => { want[c] = (want[c] || 0) + 1; });
  view.hand.forEach((c, i) => { if (want[c]) { want[c] -= 1; selected.add(i); } });
  renderSelection();
  say("hint: " + actionText(h, view.wild));
}

function onPass() {
  const p = view.legal.find((m) => m.kind === "PASS");
  if (p) sendAction(p.index);
}

async function nextDeal() {
  const v = await api("POST", "/api/games/" + view.id + "/next");
  if (v) { view = v; selected.clear(); chosen = null; render(); }
}

// ---------------------------------------------------------------------------
// Watch
// ---------------------------------------------------------------------------

let replay = null;   // {data, ply, path}

async function loadSources(select) {
  const list = await api("GET", "/api/replays");
  if (!list) return;
  const src = $("replay-source");
  src.textContent = "";
  list.forEach((s) => src.add(new Option(s.name + " (" + s.games + " games)", s.id)));
  window.ddzSources = list;
  if (select) src.value = select;
  fillGames();
}

function fillGames() {
  const list = window.ddzSources || [];
  const s = list.find((x) => x.id === $("replay-source").value);
  const g = $("replay-game");
  g.textContent = "";
  if (s) s.labels.forEach((label, k) => g.add(new Option(k + ": " + label, String(k))));
}

async function watch(path) {
  const data = await api("GET", path);
  if (!data) return;
  replay = { data, ply: 0, path };
  showTab("watch");
  $("replay").hidden = false;
  const arena = data.arena ? " - arena deal " + data.arena.deal + ", rotation " + data.arena.rotation : "";
  $("replay-title").textContent = "Rules " + data.rules + ", seed " + data.seed + arena;
  $("ply-input").max = String(data.frames.length - 1);
  showFrame(0);
}

async function showFrame(ply) {
  if (!replay) return;
  const n = replay.data.frames.length - 1;
  ply = Math.max(0, Math.min(n, ply));
  replay.ply = ply;
  const f = replay.data.frames[ply];
  document.body.dataset.ply = String(ply);
  $("ply-label").textContent = "ply " + ply + " / " + n;
  $("ply-input").value = String(ply);
  const hands = $("replay-hands");
  hands.textContent = "";
  const latest = {};
  f.trick.forEach((e) => { latest[e.seat] = e; });
  f.hands.forEach((h, s) => {
    const row = document.createElement("div");
    row.className = "replay-seat" + (f.to_move === s ? " to-move" : "");
    row.id = "replay-seat-" + s;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = replay.data.seats[s] + (f.landlord === s ? " (landlord)" : f.landlord === null ? "" : " (farmer)") +
      ": " + h.length;
    const cards = document.createElement("span");
    cards.className = "cards small";
    drawCards(cards, h, f.wild);
    const last = document.createElement("span");
    last.className = "cards small trick";
    drawAction(last, latest[s], f.wild);
    row.append(name, cards, last);
    hands.appendChild(row);
  });
  drawCards($("replay-kitty"), f.kitty || [], f.wild);
  drawWild($("replay-wild-box"), $("replay-wild"), f.wild, null);
  $("replay-stake").textContent = "stake " + f.stake + " (base " + f.base + ", bombs " + f.bombs + ")";
  $("replay-status").textContent = f.result ? (f.result.landlord_won ? "The landlord wins. " : "The farmers win. ") +
    f.result.explain : (f.to_move === null ? "" : replay.data.seats[f.to_move] + " to move");
  const log = $("replay-log");
  log.textContent = "";
  f.history.forEach((e) => {
    const li = document.createElement("li");
    li.textContent = replay.data.seats[e.seat] + ": " + actionText(e, f.wild);
    log.appendChild(li);
  });
  $("back").disabled = ply === 0;
  $("first").disabled = ply === 0;
  $("forward").disabled = ply === n;
  $("last").disabled = ply === n;
  const cardsLeft = f.hands.reduce((a, h) => a + h.length, 0);
  $("verdict").textContent = "";
  if (f.phase === "PLAY" && cardsLeft <= replay.data.solver_cards) {
    const v = await api("GET", replay.path + "/verdict/" + ply);
    if (v && replay.ply === ply) $("verdict").textContent = "Solver: " + (v.text || v.status) +
      (v.move ? " (e.g. " + v.move + ")" : "");
  }
}

async function uploadFile() {
  const file = $("replay-file").files[0];
  if (!file) return;
  const text = await file.text();
  const r = await api("POST", "/api/replays?name=" + encodeURIComponent(file.name), text, true);
  if (r) await loadSources(r.id);
}

// ---------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------

function showTab(name) {
  $("play-view").hidden = name !== "play";
  $("watch-view").hidden = name !== "watch";
  $("tab-play").classList.toggle("active", name === "play");
  $("tab-watch").classList.toggle("active", name === "watch");
  if (name === "watch" && !replay) loadSources();
}

async function init() {
  config = await api("GET", "/api/config");
  if (!config) return;
  config.presets.forEach((p) => $("preset").add(new Option(p.name + " (" + p.players + " players)", p.name)));
  config.auctions.forEach((a) => $("auction").add(new Option(a, a)));
  config.opponents.forEach((o) => {
    const label = config.levels[o] ? o + " (" + config.levels[o] + ")" : o;
    $("level").add(new Option(label, o));
  });
  $("level").value = "master";
  fillSeats();
  $("preset").addEventListener("change", fillSeats);
  $("start").addEventListener("click", startGame);
  $("hand").addEventListener("click", onHandClick);
  $("play").addEventListener("click", () => { if ($("play").dataset.index) sendAction(Number($("play").dataset.index)); });
  $("pass").addEventListener("click", onPass);
  $("hint").addEventListener("click", onHint);
  $("clear").addEventListener("click", () => { selected.clear(); chosen = null; renderSelection(); });
  $("next-deal").addEventListener("click", nextDeal);
  $("watch-deal").addEventListener("click", () => watch("/api/games/" + view.id + "/replays/" + (view.finished - 1)));
  $("tab-play").addEventListener("click", () => showTab("play"));
  $("tab-watch").addEventListener("click", () => showTab("watch"));
  $("replay-source").addEventListener("change", fillGames);
  $("load-replay").addEventListener("click", () => {
    if ($("replay-source").value) watch("/api/replays/" + $("replay-source").value + "/" + ($("replay-game").value || "0"));
  });
  $("replay-file").addEventListener("change", uploadFile);
  $("first").addEventListener("click", () => showFrame(0));
  $("back").addEventListener("click", () => showFrame(replay.ply - 1));
  $("forward").addEventListener("click", () => showFrame(replay.ply + 1));
  $("last").addEventListener("click", () => showFrame(replay.data.frames.length - 1));
  $("jump").addEventListener("click", () => showFrame(Number($("ply-input").value)));
  document.body.dataset.ready = "1";
}

init();
