// The table page: sit down (enter), the seat's view and decisions over API v1 (view, events
// stream, moves), the table's own stream (chairs, host, clock, autopilot notices, signals),
// then the summary. Rendering is in render.js; this module holds the state and the calls.
import { boot, call, message, t, applyI18n, onLanguage, notifyTurn, CallError } from "./core.js";
import * as R from "./render.js";

const matchId = document.getElementById("table").dataset.match;
const tab = Math.random().toString(36).slice(2, 12);
const S = {
  entry: null, view: null, decision: null, table: null, signals: [], log: [], targeting: null,
  rolesAtTable: null, clockAt: 0, over: false, summary: null, seenNotices: new Set(),
  sending: false,
};
let gameES = null;
let tableES = null;
let refreshTimer = null;
window.bangTable = { state: S, sendMove, sendSignal, render, refresh: refreshView };

function nameOf(seat) {
  return S.table?.chairs?.[seat]?.name || t("chair.n", { n: seat + 1 });
}

function render() {
  if (!S.view) return;
  R.renderTable(S, { nameOf, onCard: clickCard, onPlayer: clickPlayer, onMove: sendMove });
  R.renderSignals(S, { nameOf, onSignal: sendSignal });
  R.renderHost(S, { nameOf, onHost: hostAction });
  applyI18n(document);
}

function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refreshView, 60);
}

async function refreshView() {
  try {
    const body = await call("GET", `/v1/matches/${matchId}/view`);
    // A view asked for just before this seat's decision arrived can come back after it: older
    // than the page's own, it would take the decision off the screen (and the clock would then
    // play for the seat). The log only grows, so the cursor tells which view is newer.
    if (S.view && body.view.cursor < S.view.cursor) return;
    S.view = body.view;
    if (S.decision && (!S.view.decision || S.view.decision.seat !== S.entry.seat)) S.decision = null;
    // The view says this seat must decide but no decision arrived (a notice missed between two
    // stream connections): ask for it rather than wait for the clock to run out.
    else if (!S.decision && S.view.decision && S.view.decision.seat === S.entry?.seat) pollDecision();
    if (S.view.over && !S.over) showSummary();
    render();
  } catch (e) {
    message(e.message, "error");
  }
}

async function pollDecision() {
  if (S.entry?.seat === null || S.entry?.seat === undefined) return;
  try {
    // a person reads the table, not our model prompts: none are rendered or sent
    const p = await call("GET", `/v1/matches/${matchId}/decision?wait=0&prompt=none`);
    if (p) setDecision(p);
  } catch (e) {
    if (!(e instanceof CallError) || e.status !== 410) message(e.message, "error");
  }
}

function setDecision(p) {
  if (S.decision?.decision_id === p.decision_id) return;
  S.decision = p;
  S.view = p.view;
  S.targeting = null;
  S.clockAt = performance.now();
  notifyTurn(t("msg.your_turn"));
  render();
  document.querySelector("#decision button, #hand .legal")?.focus({ preventScroll: true });
}

// -- choosing a move -------------------------------------------------------------------------
function clickCard(kind) {
  const moves = R.cardMoves(S).get(kind);
  if (!moves || !moves.length) return;
  const targeted = moves.filter((m) => m.target !== null);
  if (moves.length === 1 && targeted.length === 0) return sendMove(S.decision.decision_id, moves[0].id);
  if (targeted.length === moves.length) {
    S.targeting = { kind, moves };
    render();
    return;
  }
  S.targeting = { kind, moves, menu: true };
  render();
}

function clickPlayer(seat) {
  if (!S.targeting) return;
  const m = S.targeting.moves.find((x) => x.target === seat);
  if (m) sendMove(S.decision.decision_id, m.id);
}

export async function sendMove(decisionId, moveId) {
  if (S.sending) return;
  S.sending = true;
  try {
    await call("POST", `/v1/matches/${matchId}/moves`, { decision_id: decisionId, move_id: moveId });
    if (S.decision?.decision_id === decisionId) S.decision = null;
    S.targeting = null;
    scheduleRefresh();
  } catch (e) {
    if (e.status === 409) message(t("msg.too_late"), "warn");
    else if (e.status === 422) message(t("msg.illegal"), "warn");
    else if (e.status === 410) message(e.code === "eliminated" ? t("msg.out") : t("msg.over"), "info");
    else message(e.message, "error");
    S.decision = null;
    S.targeting = null;
    scheduleRefresh();
    pollDecision();
  } finally {
    S.sending = false;
    render();
  }
}

async function sendSignal(body) {
  try {
    await call("POST", `/web/v1/tables/${matchId}/signals`, body);
  } catch (e) {
    const key = { too_fast: "msg.signal_too_fast", limit: "msg.signal_limit", not_in_game: "msg.signal_out" }[e.code];
    message(key ? t(key) : e.message, "warn");
  }
}

async function hostAction(action, arg) {
  const code = S.table?.code;
  if (!code) return;
  try {
    if (action === "speed") await call("POST", `/web/v1/rooms/${code}/speed`, { speed: arg });
    if (action === "hand") await call("POST", `/web/v1/rooms/${code}/chairs/${arg}/hand`);
    if (action === "return") await call("DELETE", `/web/v1/rooms/${code}/chairs/${arg}/hand`);
  } catch (e) {
    message(e.message, "error");
  }
}

// -- the streams -----------------------------------------------------------------------------
function connection(lost) {
  const box = document.getElementById("conn");
  box.hidden = !lost;
  box.textContent = lost ? t("msg.connection_lost") : "";
}

function openGameStream() {
  gameES = new EventSource(`/v1/matches/${matchId}/events?prompt=none`);
  gameES.addEventListener("game", (ev) => {
    const e = JSON.parse(ev.data);
    if (e.kind === "game_started") S.rolesAtTable = e.roles_at_table;
    if (e.kind === "check") R.showCheck(e, nameOf);
    S.log.push(e);
    if (S.log.length > 400) S.log.splice(0, S.log.length - 400);
    scheduleRefresh();
  });
  gameES.addEventListener("decision", (ev) => setDecision(JSON.parse(ev.data)));
  gameES.addEventListener("end", () => {
    gameES.close();
    refreshView().then(showSummary);
  });
  gameES.onerror = () => {
    if (!S.over) connection(true);
  };
  gameES.onopen = () => {
    connection(false);
    refreshView();
    pollDecision();
  };
}

function openTableStream() {
  tableES = new EventSource(`/web/v1/tables/${matchId}/stream?tab=${tab}`);
  tableES.addEventListener("table", (ev) => {
    S.table = JSON.parse(ev.data);
    S.clockAt = performance.now();
    for (const n of S.table.notices) {
      if (S.seenNotices.has(n.index)) continue;
      S.seenNotices.add(n.index);
      S.log.push({ kind: "autopilot", seat: n.seat, reason: n.reason });
      if (n.seat === S.entry.seat) message(t("msg.autopilot_you", { reason: t(`reason.${n.reason}`) }), "warn", true);
    }
    if (S.over && S.table.next_match && S.entry.seat !== null) location.href = `/table/${S.table.next_match}`;
    render();
  });
  tableES.addEventListener("signal", (ev) => {
    const s = JSON.parse(ev.data);
    if (!S.signals.some((x) => x.n === s.n)) S.signals.push(s);
    R.flashSignal(s, nameOf);
    render();
  });
  tableES.addEventListener("replaced", () => {
    tableES.close();
    gameES?.close();
    const box = document.getElementById("conn");
    box.hidden = false;
    box.innerHTML = "";
    box.append(t("msg.other_tab"), " ");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = t("msg.play_here");
    b.addEventListener("click", () => location.reload());
    box.append(b);
  });
}

// -- the summary -----------------------------------------------------------------------------
async function showSummary() {
  if (S.over) return;
  S.over = true;
  S.decision = null;
  try {
    S.summary = await call("GET", `/web/v1/tables/${matchId}/summary`);
  } catch (e) {
    message(e.message, "error");
    return;
  }
  R.renderSummary(S, { nameOf, onAgain: playAgain });
  applyI18n(document);
  render();
}

async function playAgain() {
  const code = S.summary?.code;
  if (!code || S.entry.seat === null) {
    location.href = "/";
    return;
  }
  try {
    const r = await call("POST", `/web/v1/rooms/${code}/again`);
    if (r.table && r.match_id !== matchId) location.href = r.table;
  } catch (e) {
    message(e.code === "not_host" ? t("msg.wait_host") : e.message, "info", true);
  }
}

// -- sitting down ----------------------------------------------------------------------------
async function enter() {
  try {
    return await call("POST", `/web/v1/tables/${matchId}/enter`, {});
  } catch (e) {
    if (e.code === "not_at_table") {
      message(t("msg.not_at_table"), "info", true);
      return call("POST", `/web/v1/tables/${matchId}/enter`, { watch: true });
    }
    throw e;
  }
}

async function main() {
  await boot();
  try {
    S.entry = await enter();
  } catch (e) {
    message(e.status === 404 ? t("msg.unknown_match") : e.message, "error", true);
    return;
  }
  onLanguage(() => {
    render();
    if (S.summary) R.renderSummary(S, { nameOf, onAgain: playAgain });
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && S.targeting) {
      S.targeting = null;
      render();
    }
  });
  setInterval(() => R.tickClock(S), 250);
  await refreshView();
  openTableStream();
  openGameStream();
}

main();
