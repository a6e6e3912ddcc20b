// The home screen: settings, Play, Create room, Join room (by code), Watch a bot match.
import { boot, call, message, t, applyI18n, onLanguage, escapeHtml } from "./core.js";

let models = [];

function settings() {
  const seats = Number(document.getElementById("seats").value);
  const body = {
    name: document.getElementById("name").value.trim(),
    seats,
    mode: document.getElementById("mode").value,
    time_per_move: Number(document.getElementById("time").value),
    speed: document.getElementById("speed").value,
  };
  if (models.length) {
    body.chairs = [];
    for (let i = 1; i < seats; i++) {
      const v = document.getElementById(`opp-${i}`)?.value || "bot";
      body.chairs.push(v === "bot" ? { kind: "bot" } : { kind: "model", participant: v });
    }
  }
  return body;
}

function renderOpponents() {
  const box = document.getElementById("opponents");
  if (!models.length) return;
  box.hidden = false;
  const seats = Number(document.getElementById("seats").value);
  const list = document.getElementById("opponent-list");
  const old = Object.fromEntries([...list.querySelectorAll("select")].map((s) => [s.id, s.value]));
  let html = "";
  for (let i = 1; i < seats; i++) {
    const opts = [`<option value="bot">${escapeHtml(t("chair.bot"))}</option>`]
      .concat(models.map((m) => `<option value="${escapeHtml(m)}">AI · ${escapeHtml(m)}</option>`))
      .join("");
    html += `<label>${escapeHtml(t("chair.n", { n: i + 1 }))} <select id="opp-${i}">${opts}</select></label>`;
  }
  list.innerHTML = html;
  for (const [id, v] of Object.entries(old)) {
    const s = document.getElementById(id);
    if (s) s.value = v;
  }
}

function checkName() {
  const input = document.getElementById("name");
  if (!input.reportValidity()) return false;
  localStorage.setItem("bangarena.name", input.value.trim());
  return true;
}

async function go(fn) {
  try {
    const r = await fn();
    location.href = r.table || r.link;
  } catch (e) {
    message(e.message, "error", true);
  }
}

async function main() {
  // The buttons work from the first paint: their handlers are attached before the strings and
  // the options load (a click in that window did nothing, and a loaded CI clicked in it).
  document.getElementById("seats").addEventListener("change", renderOpponents);
  document.getElementById("settings").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (checkName()) go(() => call("POST", "/web/v1/play", settings()));
  });
  document.getElementById("create").addEventListener("click", () => {
    if (!checkName()) return;
    const body = settings();
    delete body.chairs;
    go(() => call("POST", "/web/v1/rooms", body));
  });
  document.getElementById("watch").addEventListener("click", () => {
    const s = settings();
    go(() => call("POST", "/web/v1/watch", { seats: s.seats, mode: s.mode, speed: s.speed }));
  });
  document.getElementById("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (!checkName()) return;
    const code = document.getElementById("code").value.trim().toUpperCase();
    go(async () => {
      const r = await call("POST", `/web/v1/rooms/${encodeURIComponent(code)}/join`, {
        name: document.getElementById("name").value.trim(),
      });
      return { link: r.link };
    });
  });
  await boot();
  const name = localStorage.getItem("bangarena.name");
  const field = document.getElementById("name");
  if (name && !field.value) field.value = name;
  const opts = await call("GET", "/web/v1/options").catch(() => null);
  models = opts?.models || [];
  renderOpponents();
  onLanguage(renderOpponents);
  applyI18n(document);
}

main();
