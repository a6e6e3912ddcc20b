// A room: chairs, share link, the host's controls, joining by the link; when the game starts
// every member goes to the table.
import { boot, call, message, t, applyI18n, onLanguage, escapeHtml } from "./core.js";

const code = document.querySelector(".room").dataset.code;
let room = null;
let models = [];
let leaving = false;

// One navigation to the table, whichever of the start answer and the stream comes first.
function goTable(url) {
  if (leaving) return;
  leaving = true;
  es?.close();
  location.href = url;
}

function chairLine(c) {
  const who =
    c.kind === "empty"
      ? t("chair.empty")
      : c.kind === "human"
        ? `${escapeHtml(c.name)}${c.host ? " · " + t("room.host_badge") : ""}${c.present === false ? " · " + t("chair.away") : ""}`
        : c.kind === "model"
          ? `${escapeHtml(c.badge)} · ${escapeHtml(c.model || "")}`
          : escapeHtml(c.badge || t("chair.bot"));
  let controls = "";
  if (room.you.host && room.state !== "playing" && !c.host) {
    const sel = [`<option value="">${escapeHtml(t("room.change"))}</option>`,
      `<option value="bot">${escapeHtml(c.kind === "human" ? t("room.replace") : t("room.seat_bot"))}</option>`]
      .concat(models.map((m) => `<option value="model:${escapeHtml(m)}">AI · ${escapeHtml(m)}</option>`))
      .concat(c.kind !== "empty" ? [`<option value="empty">${escapeHtml(t("room.remove"))}</option>`] : [])
      .join("");
    controls = `<select class="chair-set" data-chair="${c.chair}" aria-label="${escapeHtml(t("chair.n", { n: c.chair + 1 }))}">${sel}</select>`;
  }
  const you = room.you.chair === c.chair ? ` <strong>(${escapeHtml(t("room.you"))})</strong>` : "";
  return `<li class="chair chair-${c.kind}" data-chair="${c.chair}"><span class="chair-no">${c.chair + 1}</span> <span class="chair-who">${who}</span>${you} ${controls}</li>`;
}

function render() {
  if (!room) return;
  const link = `${location.origin}/room/${room.code}`;
  document.getElementById("share-link").textContent = link;
  document.getElementById("room-table").textContent = t("room.table", {
    seats: room.seats, mode: t(`mode.${room.mode}`), time: room.time_per_move, speed: t(`speed.${room.speed}`),
  });
  document.getElementById("chairs").innerHTML = room.chairs.map(chairLine).join("");
  const member = room.you.chair !== null;
  document.getElementById("room-join").hidden = member || room.state !== "lobby";
  document.getElementById("host-controls").hidden = !room.you.host || room.state === "playing";
  document.getElementById("room-wait").hidden = !member || room.you.host;
  for (const s of document.querySelectorAll(".chair-set")) s.addEventListener("change", setChair);
  applyI18n(document);
  if (room.state !== "lobby" && room.match_id && member) goTable(`/table/${room.match_id}`);
  if (room.state !== "lobby" && !member)
    message(t("room.started_watch"), "info", true);
}

async function setChair(ev) {
  const v = ev.target.value;
  if (!v) return;
  const chair = ev.target.dataset.chair;
  const body = v === "bot" ? { kind: "bot" } : v === "empty" ? { kind: "empty" } : { kind: "model", participant: v.slice(6) };
  try {
    room = await call("POST", `/web/v1/rooms/${code}/chairs/${chair}`, body);
    render();
  } catch (e) {
    message(e.message, "error");
  }
}

let es = null;
function stream() {
  es?.close();
  es = new EventSource(`/web/v1/rooms/${code}/stream`);
  es.addEventListener("room", (ev) => {
    room = JSON.parse(ev.data);
    render();
  });
  es.onerror = () => message(t("msg.reconnecting"), "warn");
  es.onopen = () => message("");
}

async function main() {
  await boot();
  const opts = await call("GET", "/web/v1/options").catch(() => null);
  models = opts?.models || [];
  const saved = localStorage.getItem("bangarena.name");
  if (saved) document.getElementById("join-name").value = saved;
  try {
    room = await call("GET", `/web/v1/rooms/${code}`);
  } catch (e) {
    document.getElementById("chairs").hidden = true;
    document.getElementById("share").hidden = true;
    message(e.code === "unknown_room" ? t("msg.unknown_room", { code }) : e.message, "error", true);
    return;
  }
  render();
  onLanguage(render);
  stream();
  document.getElementById("copy-link").addEventListener("click", () =>
    navigator.clipboard?.writeText(`${location.origin}/room/${code}`).then(() => message(t("room.copied"))),
  );
  document.getElementById("room-join").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = document.getElementById("join-name").value.trim();
    try {
      await call("POST", `/web/v1/rooms/${code}/join`, { name });
      localStorage.setItem("bangarena.name", name);
      room = await call("GET", `/web/v1/rooms/${code}`);
      render();
      stream(); // the stream now speaks for the new member (the cookie is set)
    } catch (e) {
      message(e.code === "room_full" ? t("msg.room_full") : e.message, "error", true);
    }
  });
  document.getElementById("fill").addEventListener("click", async () => {
    try {
      room = await call("POST", `/web/v1/rooms/${code}/fill`);
      render();
    } catch (e) {
      message(e.message, "error");
    }
  });
  document.getElementById("start").addEventListener("click", async () => {
    try {
      const r = await call("POST", `/web/v1/rooms/${code}/start`);
      goTable(r.table);
    } catch (e) {
      message(e.code === "empty_chairs" ? t("msg.empty_chairs") : e.message, "error");
    }
  });
}

main();
