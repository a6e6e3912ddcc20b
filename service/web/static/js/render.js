// Drawing the table from the state table.js keeps: the players (you at the bottom), the status
// line, the role banner, the decision (legal plays highlighted, targets on portraits, buttons
// for the rest), the hand, the log, the flipped check card, signals, host controls, summary.
import {
  t, escapeHtml as h, cardName, cardText, cardKind, cardColor, charName, charAbility, roleName,
  modeName, teamName, upgradeName, decisionHelp, decisionName,
} from "./core.js";

const CARD_MOVE = /^([a-z_]+?)(?:_as_([a-z_]+))?(?:@(\d+))?$/;

// The decision's moves played by clicking a card of the hand, by card kind.
export function cardMoves(S) {
  const out = new Map();
  const p = S.decision;
  if (!p) return out;
  const hand = new Set((S.view?.hand || []).map(cardKind));
  for (const m of p.moves) {
    let card = null;
    let target = null;
    const d = /^discard:([a-z_]+)$/.exec(m.id);
    if (d && hand.has(d[1])) card = d[1];
    else {
      const c = CARD_MOVE.exec(m.id);
      if (c && hand.has(c[1])) {
        card = c[1];
        target = c[3] !== undefined ? Number(c[3]) : null;
      }
    }
    if (card === null) continue;
    if (!out.has(card)) out.set(card, []);
    out.get(card).push({ id: m.id, text: m.text, target });
  }
  return out;
}

function otherMoves(S) {
  const cards = new Set([...cardMoves(S).values()].flat().map((m) => m.id));
  return (S.decision?.moves || []).filter((m) => !cards.has(m.id));
}

export function moveLabel(id, text, nameOf) {
  let m;
  if (id === "end_turn") return t("move.end_turn");
  if (id === "take_hit") return t("move.take_hit");
  if (id === "heal") return t("move.heal");
  if (id === "draw_deck") return t("move.draw_deck");
  if (id === "draw_discard") return t("move.draw_discard");
  if (id === "pick:hand") return t("move.pick_hand");
  if ((m = /^grip@(\d+)$/.exec(id))) return t("move.grip", { name: nameOf(Number(m[1])) });
  if ((m = /^pick:([a-z_]+)$/.exec(id))) return t("move.pick_card", { card: cardName(m[1]) });
  if ((m = /^upgrade:([a-z]+)$/.exec(id))) return t("move.upgrade", { name: upgradeName(m[1]) });
  if (id === "bounty:none") return t("move.bounty_none");
  if ((m = /^bounty:([a-z]+)$/.exec(id))) return t("move.bounty", { name: upgradeName(m[1]) });
  if ((m = /^return:(.+)$/.exec(id))) return t("move.return", { card: cardName(m[1]) });
  if ((m = /^discard:([a-z_]+)$/.exec(id))) return t("move.discard", { card: cardName(m[1]) });
  if ((m = CARD_MOVE.exec(id)) && m[3] !== undefined)
    return `${cardName(m[1])} → ${nameOf(Number(m[3]))}`;
  return text || id;
}

function stars(p) {
  return p.stars
    .map((u) => `<span class="star" title="${h(u ? upgradeName(u) : t("table.star"))}">★${u ? h(upgradeName(u).slice(0, 1)) : ""}</span>`)
    .join("");
}

function inPlay(p) {
  const cards = [...(p.weapon ? [p.weapon] : []), ...p.in_play];
  return cards
    .map((c) => `<span class="mini card-${h(cardColor(c))}" title="${h(cardText(c))}">${h(cardName(c))}</span>`)
    .join("");
}

function marksOn(S, seat, nameOf) {
  const latest = new Map();
  for (const s of S.signals) if (s.kind === "mark" && s.target === seat) latest.set(s.seat, s.value);
  return [...latest.entries()]
    .map(([from, role]) => `<span class="mark">${h(nameOf(from))}: ${h(roleName(role))}?</span>`)
    .join("");
}

function declaration(S, seat) {
  const last = [...S.signals].reverse().find((s) => s.kind === "declare" && s.seat === seat);
  return last ? `<span class="declared">“${h(t("signal.i_am", { role: roleName(last.value) }))}”</span>` : "";
}

function playerHtml(S, p, nameOf) {
  const chair = S.table?.chairs?.[p.seat];
  const badge = !chair ? "" : chair.kind === "human" ? t("badge.human")
    : chair.kind === "model" ? `${chair.badge} · ${chair.model || ""}` : chair.kind === "bot" ? t("chair.bot") : chair.badge;
  const decider = S.view.decision?.seat === p.seat && !S.view.over;
  const target = S.targeting && !S.targeting.menu && S.targeting.moves.some((m) => m.target === p.seat);
  const role = p.role ? roleName(p.role) : "";
  const cls = ["player", p.alive ? "" : "dead", decider ? "deciding" : "", target ? "target" : "",
    p.seat === S.view.turn ? "turn" : "", p.seat === S.view.seat ? "self" : ""].join(" ");
  const dist = p.distance !== null && p.distance !== undefined ? ` · ↔ ${p.distance}` : "";
  const aria = t("aria.player", {
    name: nameOf(p.seat), character: charName(p.character), life: p.life, max: p.max_life,
    cards: p.hand_size,
  }) + (p.distance ? `, ${t("aria.distance", { d: p.distance })}` : "") + (role ? `, ${role}` : "") +
    (target ? `, ${t("aria.target")}` : "");
  const handed = chair?.handed ? ` <span class="handed">${h(t("table.handed"))}</span>` : "";
  const away = chair?.present === false ? ` <span class="away">${h(t("chair.away"))}</span>` : "";
  return `<button type="button" class="${cls}" data-seat="${p.seat}" aria-label="${h(aria)}">
    <span class="marks">${marksOn(S, p.seat, nameOf)}</span>
    <span class="bubble" data-bubble="${p.seat}"></span>
    <span class="pname">${h(nameOf(p.seat))}</span>
    <span class="badge">${h(badge)}${handed}${away}</span>
    <span class="portrait" aria-hidden="true">${h(charName(p.character).slice(0, 2))}</span>
    <span class="char">${h(charName(p.character))}</span>
    <span class="ability">${h(charAbility(p.character))}</span>
    <span class="stats">♥ ${p.life}/${p.max_life} · 🂠 ${p.hand_size}${dist}</span>
    <span class="inplay">${inPlay(p)}</span>
    <span class="stars">${stars(p)}</span>
    <span class="role">${h(role)}${p.revealed || !role ? "" : " 👁"}</span>
    ${declaration(S, p.seat)}
    <span class="timer" data-timer="${p.seat}"></span>
  </button>`;
}

function statusLine(S, nameOf) {
  const v = S.view;
  if (v.over) return t("table.over");
  if (S.table?.status === "waiting") return t("table.waiting");
  const d = v.decision;
  const parts = [t("table.round", { n: v.round })];
  if (v.high_noon) parts.push(`☀ ${t("table.high_noon")}`);
  parts.push(t("table.turn_of", { name: nameOf(v.turn) }));
  if (d && d.seat !== v.turn) parts.push(t("table.response", { name: nameOf(d.seat) }));
  else if (d) parts.push(decisionName(d.kind));
  return parts.join(" · ");
}

function decisionHtml(S, nameOf) {
  const p = S.decision;
  if (!p) {
    if (S.view.seat !== null && S.view.decision && !S.view.over)
      return `<p class="muted">${h(t("table.waiting_for", { name: nameOf(S.view.decision.seat) }))}</p>`;
    return "";
  }
  let html = `<p class="help"><strong>${h(decisionName(p.kind))}</strong> — ${h(decisionHelp(p.kind))}`;
  if (p.source !== null && p.source !== undefined) html += ` (${h(t("table.from", { name: nameOf(p.source) }))})`;
  if (p.needed) html += ` ${h(t("table.needed", { n: p.needed }))}`;
  html += ` <span class="my-timer" data-timer="me"></span></p>`;
  if (S.targeting?.menu) {
    html += `<div class="menu" role="group" aria-label="${h(cardName(S.targeting.kind))}">`;
    for (const m of S.targeting.moves)
      html += `<button type="button" class="move" data-move="${h(m.id)}">${h(moveLabel(m.id, m.text, nameOf))}</button>`;
    html += `<button type="button" class="cancel" data-cancel="1">${h(t("table.cancel"))}</button></div>`;
  } else if (S.targeting) {
    html += `<p class="pick-target">${h(t("table.pick_target", { card: cardName(S.targeting.kind) }))}
      <button type="button" class="cancel" data-cancel="1">${h(t("table.cancel"))}</button></p>`;
  }
  if (cardMoves(S).size) html += `<p class="muted">${h(t("table.play_hint"))}</p>`;
  const others = otherMoves(S);
  if (others.length) {
    html += `<div class="moves" role="group" aria-label="${h(t("table.moves"))}">`;
    for (const m of others)
      html += `<button type="button" class="move" data-move="${h(m.id)}">${h(moveLabel(m.id, m.text, nameOf))}</button>`;
    html += "</div>";
  }
  return html;
}

function handHtml(S) {
  const legal = cardMoves(S);
  return (S.view.hand || [])
    .map((c) => {
      const kind = cardKind(c);
      const ok = legal.has(kind);
      const chosen = S.targeting?.kind === kind;
      return `<button type="button" class="card card-${h(cardColor(c))}${ok ? " legal" : ""}${chosen ? " chosen" : ""}"
        data-card="${h(kind)}" ${ok ? "" : 'aria-disabled="true"'} aria-label="${h(cardName(c))}${ok ? ", " + h(t("aria.playable")) : ""}"
        title="${h(cardText(c))}"><span class="cname">${h(cardName(c))}</span><span class="ctext">${h(cardText(c))}</span></button>`;
    })
    .join("");
}

function rolesLine(S) {
  const roles = S.rolesAtTable;
  if (!roles) return "";
  const counts = {};
  for (const r of roles) counts[r] = (counts[r] || 0) + 1;
  const list = Object.entries(counts).map(([r, n]) => `${roleName(r)}${n > 1 ? " ×" + n : ""}`);
  return `${t("table.roles_at_table")} (${modeName(S.view.mode)}): ${list.join(", ")}`;
}

export function logLine(e, nameOf) {
  const n = (s) => nameOf(s);
  switch (e.kind) {
    case "turn_started": return t("log.turn", { name: n(e.seat), round: e.round });
    case "high_noon": return `☀ ${t("table.high_noon")}`;
    case "drew": return e.reason === "deal" ? null : t("log.drew", { name: n(e.seat), count: e.count, cards: (e.cards || []).map(cardName).join(", ") });
    case "played": return t(e.target !== null ? "log.played_at" : "log.played", { name: n(e.seat), card: cardName(e.as_kind || e.card), target: e.target !== null ? n(e.target) : "" });
    case "equipped": return t("log.equipped", { name: n(e.owner), card: cardName(e.card) });
    case "answered": return t("log.answered", { name: n(e.seat), card: cardName(e.as_kind || e.card) });
    case "cancelled": return t("log.cancelled", { name: n(e.seat) });
    case "hit": return t("log.hit", { name: n(e.seat), amount: e.amount, life: e.life });
    case "healed": return t("log.healed", { name: n(e.seat), life: e.life });
    case "discarded": return t("log.discarded", { name: n(e.seat), cards: e.cards.map(cardName).join(", ") });
    case "stole": return t("log.stole", { name: n(e.seat), victim: n(e.victim), card: e.card ? cardName(e.card) : "" });
    case "eliminated": return t("log.eliminated", { name: n(e.seat), role: roleName(e.role) });
    case "star_gained": return t("log.star", { name: n(e.seat), upgrade: e.upgrade ? upgradeName(e.upgrade) : "" });
    case "check": return t(e.success ? "log.check_ok" : "log.check_fail", { name: n(e.seat), what: cardName(e.reason), cards: e.cards.length ? e.cards.map(cardName).join(", ") : "🪙" });
    case "dynamite_passed": return t("log.dynamite_passed", { name: n(e.seat), to: n(e.to) });
    case "dynamite_exploded": return t("log.dynamite", { name: n(e.seat) });
    case "jail_result": return t(e.escaped ? "log.jail_escaped" : "log.jail_held", { name: n(e.seat) });
    case "reshuffled": return t("log.reshuffled");
    case "game_over": return e.winners.length ? t("log.game_over", { team: teamName(e.winning_team) }) : t("summary.draw");
    case "autopilot": return t("log.autopilot", { name: n(e.seat), reason: t(`reason.${e.reason}`) });
    case "penalty": return t("log.penalty", { name: n(e.seat) });
    case "scavenged": return t("log.scavenged", { name: n(e.seat), victim: n(e.victim) });
    default: return null;
  }
}

// The table is drawn again at every event, which replaces the hand, the moves and the players:
// the focus goes back to the same card, move or player, or a keyboard player would lose it to
// every move another seat makes.
function focusedKey() {
  const a = document.activeElement;
  if (!a || !a.dataset) return null;
  if (a.matches("#hand .card") && a.dataset.card) return `#hand .card[data-card="${CSS.escape(a.dataset.card)}"]`;
  if (a.matches("#decision button.move") && a.dataset.move) return `#decision button.move[data-move="${CSS.escape(a.dataset.move)}"]`;
  if (a.matches(".player") && a.dataset.seat) return `#${a.closest("#me") ? "me" : "others"} .player[data-seat="${CSS.escape(a.dataset.seat)}"]`;
  return null;
}

export function renderTable(S, cb) {
  const v = S.view;
  const { nameOf } = cb;
  const focused = focusedKey();
  document.getElementById("status-line").textContent = statusLine(S, nameOf);
  const banner = document.getElementById("role-banner");
  banner.textContent = v.seat === null ? t("table.spectator") : v.role ? t("table.you_are", { role: roleName(v.role) }) : "";
  document.getElementById("roles-line").textContent = rolesLine(S);
  // the others in seat order starting after you; you at the bottom
  const n = v.players.length;
  const start = v.seat === null ? 0 : v.seat + 1;
  const order = [];
  for (let k = 0; k < n; k++) {
    const i = (start + k) % n;
    if (i !== v.seat) order.push(v.players[i]);
  }
  const others = document.getElementById("others");
  others.innerHTML = order.map((p) => playerHtml(S, p, nameOf)).join("");
  others.dataset.count = String(order.length);
  document.getElementById("me").innerHTML = v.seat === null ? "" : playerHtml(S, v.players[v.seat], nameOf);
  document.getElementById("piles").innerHTML =
    `<span class="pile" aria-label="${h(t("table.deck"))}">🂠 ${v.deck_size}</span>` +
    `<span class="pile" aria-label="${h(t("table.discard"))}">${v.discard_top ? h(cardName(v.discard_top)) : "—"} · ${v.discard_size}</span>`;
  const dec = document.getElementById("decision");
  dec.innerHTML = decisionHtml(S, nameOf);
  document.getElementById("hand").innerHTML = v.seat === null ? "" : handHtml(S);
  for (const b of document.querySelectorAll("#hand .card.legal")) b.addEventListener("click", () => cb.onCard(b.dataset.card));
  for (const b of document.querySelectorAll(".player")) b.addEventListener("click", () => cb.onPlayer(Number(b.dataset.seat)));
  for (const b of dec.querySelectorAll("button.move")) b.addEventListener("click", () => cb.onMove(S.decision.decision_id, b.dataset.move));
  if (focused) document.querySelector(focused)?.focus({ preventScroll: true });
  for (const b of dec.querySelectorAll("button.cancel"))
    b.addEventListener("click", () => {
      S.targeting = null;
      renderTable(S, cb);
    });
  const log = document.getElementById("log");
  const lines = S.log.map((e) => logLine(e, nameOf)).filter(Boolean).slice(-120);
  log.innerHTML = lines.map((l) => `<li>${h(l)}</li>`).join("");
  log.scrollTop = log.scrollHeight;
  tickClock(S);
}

export function tickClock(S) {
  for (const el of document.querySelectorAll("[data-timer]")) el.textContent = "";
  const c = S.table?.clock;
  const elapsed = (performance.now() - S.clockAt) / 1000;
  if (c && c.left_s !== undefined) {
    const left = Math.max(0, Math.ceil(c.left_s - elapsed));
    const el = document.querySelector(`.player [data-timer="${c.seat}"]`);
    if (el) el.textContent = `⏱ ${left}s`;
  }
  if (S.decision) {
    const left = Math.max(0, Math.ceil(S.decision.deadline_s - elapsed));
    const el = document.querySelector('[data-timer="me"]');
    if (el) el.textContent = `⏱ ${t("table.seconds_left", { s: left })}`;
  }
}

export function showCheck(e, nameOf) {
  const box = document.getElementById("check-card");
  box.innerHTML = `<span class="check-what">${h(nameOf(e.seat))} · ${h(cardName(e.reason))}</span>` +
    (e.cards.length ? e.cards.map((c) => `<span class="card big">${h(cardName(c))}</span>`).join("") : `<span class="card big">🪙</span>`) +
    `<span class="check-result">${h(t(e.success ? "table.check_ok" : "table.check_fail"))}</span>`;
  box.hidden = false;
  clearTimeout(showCheck.timer);
  showCheck.timer = setTimeout(() => (box.hidden = true), 1600);
}

export function flashSignal(s, nameOf) {
  if (s.kind !== "react") return;
  setTimeout(() => {
    const el = document.querySelector(`[data-bubble="${s.seat}"]`);
    if (!el) return;
    el.textContent = s.value;
    el.classList.add("show");
    setTimeout(() => el.classList.remove("show"), 3000);
  }, 0);
}

export function renderSignals(S, cb) {
  const box = document.getElementById("signals");
  const me = S.view.seat;
  if (me === null || S.entry?.role !== "seat") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const alive = S.view.players[me].alive && !S.view.over;
  const active = document.activeElement?.id;
  const keep = { target: document.getElementById("mark-target")?.value, role: document.getElementById("mark-role")?.value };
  let html = `<span class="sig-title">${h(t("signal.title"))}</span>`;
  if (alive) {
    html += `<span role="group" aria-label="${h(t("signal.who_i_am"))}">${h(t("signal.who_i_am"))}: ` +
      ["deputy", "outlaw", "renegade"].map((r) => `<button type="button" class="sig" data-declare="${r}">${h(roleName(r))}</button>`).join("") + "</span>";
    const targets = S.view.players.filter((p) => p.seat !== me).map((p) => `<option value="${p.seat}">${h(cb.nameOf(p.seat))}</option>`).join("");
    const roles = ["sheriff", "deputy", "outlaw", "renegade"].map((r) => `<option value="${r}">${h(roleName(r))}</option>`).join("");
    html += ` <span role="group" aria-label="${h(t("signal.i_think"))}">${h(t("signal.i_think"))} <select id="mark-target" aria-label="${h(t("signal.whom"))}">${targets}</select>
      <select id="mark-role" aria-label="${h(t("signal.role"))}">${roles}</select>
      <button type="button" class="sig" id="mark-send">${h(t("signal.mark"))}</button></span>`;
  }
  html += ` <span role="group" aria-label="${h(t("signal.reactions"))}">` +
    ["👍", "😂", "😠", "😱", "🤝", "🤔", "GG"].map((r) => `<button type="button" class="sig react" data-react="${r}" aria-label="${h(t("signal.react"))} ${r}">${r}</button>`).join("") + "</span>";
  if (S.table?.signals_left !== null && S.table?.signals_left !== undefined)
    html += ` <span class="muted">${h(t("signal.left", { n: S.table.signals_left }))}</span>`;
  box.innerHTML = html;
  const target = document.getElementById("mark-target");
  const role = document.getElementById("mark-role");
  if (keep.target && target) target.value = keep.target;
  if (keep.role && role) role.value = keep.role;
  if (active) document.getElementById(active)?.focus();
  for (const b of box.querySelectorAll("[data-declare]")) b.addEventListener("click", () => cb.onSignal({ kind: "declare", value: b.dataset.declare }));
  for (const b of box.querySelectorAll("[data-react]")) b.addEventListener("click", () => cb.onSignal({ kind: "react", value: b.dataset.react }));
  document.getElementById("mark-send")?.addEventListener("click", () =>
    cb.onSignal({ kind: "mark", value: document.getElementById("mark-role").value, target: Number(document.getElementById("mark-target").value) }));
}

export function renderHost(S, cb) {
  const box = document.getElementById("host-panel");
  if (!S.table?.you?.host || S.view.over) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const speeds = ["slow", "normal", "fast"].map((s) => `<option value="${s}"${S.table.speed === s ? " selected" : ""}>${h(t(`speed.${s}`))}</option>`).join("");
  let html = `<strong>${h(t("room.host"))}</strong> <label>${h(t("home.speed"))} <select id="host-speed">${speeds}</select></label>`;
  for (const c of S.table.chairs) {
    if (c.kind !== "human" || c.chair === S.view.seat) continue;
    // only an absent player's seat can be handed over (rules.md §3)
    if (c.handed)
      html += ` <button type="button" data-return="${c.chair}">${h(t("host.return", { name: c.name }))}</button>`;
    else if (c.present === false)
      html += ` <button type="button" data-hand="${c.chair}">${h(t("host.hand", { name: c.name }))}</button>`;
  }
  box.innerHTML = html;
  document.getElementById("host-speed").addEventListener("change", (ev) => cb.onHost("speed", ev.target.value));
  for (const b of box.querySelectorAll("[data-hand]")) b.addEventListener("click", () => cb.onHost("hand", b.dataset.hand));
  for (const b of box.querySelectorAll("[data-return]")) b.addEventListener("click", () => cb.onHost("return", b.dataset.return));
}

export function renderSummary(S, cb) {
  const s = S.summary;
  const { nameOf } = cb;
  const box = document.getElementById("summary");
  const won = s.you !== null && s.winners.includes(s.you);
  const head = s.winning_team && s.winning_team !== "draw" && s.winners.length
    ? t("summary.winner", { team: teamName(s.winning_team) }) : t("summary.draw");
  const rows = s.players.map((p) => `<tr class="${s.winners.includes(p.seat) ? "winner" : ""}">
      <th scope="row">${h(nameOf(p.seat))}</th><td>${h(roleName(p.role))}</td><td>${h(charName(p.character))}</td>
      <td>${p.alive ? "♥ " + p.life : "✝"}</td><td>${p.damage_dealt}</td><td>${p.damage_taken}</td><td>${p.eliminations}</td>
      <td>${p.cards_played}</td><td>${p.stars}</td><td>${p.decisions}</td><td>${p.autopilot}</td></tr>`).join("");
  const cols = ["player", "role", "character", "life", "dealt", "taken", "kills", "cards", "stars", "decisions", "autopilot"]
    .map((c) => `<th scope="col">${h(t(`summary.col.${c}`))}</th>`).join("");
  const badges = s.badges.map((b) => `<li>🏅 ${h(t(`badge.${b.badge}`))}: ${h(nameOf(b.seat))} (${b.value})</li>`).join("");
  const ach = s.achievements.map((a) => `<li>⭐ ${h(t(`achievement.${a}`))}</li>`).join("");
  box.innerHTML = `<h2 id="summary-title">${h(head)}</h2>
    ${s.you !== null ? `<p class="result-you">${h(t(won ? "summary.you_won" : "summary.you_lost"))}</p>` : ""}
    <p class="muted">${h(t("summary.rounds", { n: s.rounds }))}</p>
    <table class="stats"><thead><tr>${cols}</tr></thead><tbody>${rows}</tbody></table>
    <h3>${h(t("summary.badges"))}</h3><ul class="badges">${badges || `<li>—</li>`}</ul>
    ${s.you !== null ? `<h3>${h(t("summary.achievements"))}</h3><ul class="achievements">${ach || `<li>—</li>`}</ul>` : ""}
    <p class="actions"><button type="button" id="again" class="primary">${h(t("summary.again"))}</button>
    <a href="/">${h(t("summary.home"))}</a></p>`;
  box.hidden = false;
  box.scrollIntoView({ block: "start" });
  document.getElementById("again").addEventListener("click", cb.onAgain);
}
