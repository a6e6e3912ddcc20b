// What every page shares: the interface language (i18n files), the rules (names and texts of
// cards, characters, roles from /v1/rules), JSON calls with readable errors, the top buttons
// (notifications, focus mode, library, language) and the message bar.

const UI_LANGS = ["en", "ru", "pt", "es", "fr"];
const CARD_LANGS = ["en", "pt", "es", "fr"];
const state = { lang: "en", strings: {}, fallback: {}, rules: null, rerender: [] };

export function lang() {
  return state.lang;
}

// The language of card, character and rules texts: the interface's, or English for ru.
export function cardLang() {
  return CARD_LANGS.includes(state.lang) ? state.lang : "en";
}

async function loadStrings(code) {
  const r = await fetch(`/web/i18n/${code}.json`);
  if (!r.ok) throw new Error(`no interface strings for ${code}`);
  return r.json();
}

// t("key", {name: "Ana"}) → the interface string with {name} filled in (English if missing).
export function t(key, vars = {}) {
  let s = state.strings[key] ?? state.fallback[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, String(v));
  return s;
}

export async function setLang(code) {
  if (!UI_LANGS.includes(code)) code = "en";
  state.lang = code;
  localStorage.setItem("bangarena.lang", code);
  state.strings = await loadStrings(code);
  document.documentElement.lang = code;
  applyI18n(document);
  for (const fn of state.rerender) fn();
}

// Elements with data-i18n get their text, data-i18n-aria their aria-label, data-i18n-title
// their title; the page calls this again after it renders new ones.
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]"))
    el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]"))
    el.placeholder = t(el.dataset.i18nPlaceholder);
}

export function onLanguage(fn) {
  state.rerender.push(fn);
}

// -- the rules: names and texts --------------------------------------------------------------
export async function rules() {
  if (!state.rules) {
    const r = await fetch("/v1/rules");
    const doc = await r.json();
    const by = (list) => Object.fromEntries(list.map((x) => [x.id, x]));
    state.rules = {
      doc,
      cards: by([...doc.cards, doc.default_weapon]),
      characters: by(doc.characters),
      roles: by(doc.roles),
      modes: by(doc.modes),
      teams: by(doc.teams),
      upgrades: by(doc.glory.upgrades),
      decisions: by(doc.decision_kinds),
    };
  }
  return state.rules;
}

function pick(texts, fallback) {
  if (!texts) return fallback;
  return texts[cardLang()] ?? texts.en ?? fallback;
}

// A card id (shot_14) or kind (shot) → its kind.
export function cardKind(card) {
  return String(card).replace(/_\d+$/, "");
}

export function cardName(card) {
  const kind = cardKind(card);
  return pick(state.rules?.cards[kind]?.names, kind);
}
export function cardText(card) {
  const c = state.rules?.cards[cardKind(card)];
  return c ? pick(c.effect, "") : "";
}
export function cardColor(card) {
  return state.rules?.cards[cardKind(card)]?.color ?? "brown";
}
export function charName(id) {
  return pick(state.rules?.characters[id]?.names, id);
}
export function charAbility(id) {
  return pick(state.rules?.characters[id]?.ability, "");
}
export function roleName(id) {
  return pick(state.rules?.roles[id]?.names, id);
}
export function modeName(id) {
  return pick(state.rules?.modes[id]?.names, id);
}
export function teamName(id) {
  return pick(state.rules?.teams[id]?.names, id);
}
export function upgradeName(id) {
  return pick(state.rules?.upgrades[id]?.names, id);
}
export function decisionHelp(kind) {
  return pick(state.rules?.decisions[kind]?.help, "");
}
export function decisionName(kind) {
  return pick(state.rules?.decisions[kind]?.names, kind);
}

// -- calls -----------------------------------------------------------------------------------
export class CallError extends Error {
  constructor(status, body) {
    super(body?.reason || `HTTP ${status}`);
    this.status = status;
    this.code = body?.error || "";
    this.body = body;
  }
}

export async function call(method, url, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(url, opts);
  } catch (e) {
    throw new CallError(0, { error: "network", reason: t("msg.network") });
  }
  if (r.status === 204) return null;
  const data = await r.json().catch(() => null);
  if (!r.ok) throw new CallError(r.status, data);
  return data;
}

// -- messages --------------------------------------------------------------------------------
let hideTimer = null;
export function message(text, kind = "info", sticky = false) {
  const bar = document.getElementById("message");
  if (!bar) return;
  bar.textContent = text;
  bar.dataset.kind = kind;
  bar.hidden = !text;
  clearTimeout(hideTimer);
  if (text && !sticky) hideTimer = setTimeout(() => (bar.hidden = true), 6000);
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// -- the top buttons -------------------------------------------------------------------------
const prefs = { notify: localStorage.getItem("bangarena.notify") === "1" };

export function notifyTurn(text) {
  if (!prefs.notify) return;
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    osc.frequency.value = 660;
    osc.connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.15);
  } catch (e) {
    /* no sound on this device */
  }
  if (document.hidden && "Notification" in window && Notification.permission === "granted")
    new Notification("BangArena", { body: text });
}

function setupTopButtons() {
  const bell = document.getElementById("btn-notify");
  const paint = () => {
    bell?.setAttribute("aria-pressed", String(prefs.notify));
    bell?.classList.toggle("on", prefs.notify);
  };
  bell?.addEventListener("click", async () => {
    prefs.notify = !prefs.notify;
    if (prefs.notify && "Notification" in window && Notification.permission === "default")
      await Notification.requestPermission().catch(() => null);
    localStorage.setItem("bangarena.notify", prefs.notify ? "1" : "0");
    paint();
  });
  paint();
  const focus = document.getElementById("btn-focus");
  focus?.addEventListener("click", () => {
    const on = document.body.classList.toggle("focus");
    focus.setAttribute("aria-pressed", String(on));
  });
  const select = document.getElementById("lang");
  if (select) {
    select.value = state.lang;
    select.addEventListener("change", () => setLang(select.value));
  }
}

export async function boot() {
  state.fallback = await loadStrings("en");
  const saved = localStorage.getItem("bangarena.lang");
  const guess = (navigator.language || "en").slice(0, 2);
  await Promise.all([setLang(saved || (UI_LANGS.includes(guess) ? guess : "en")), rules()]);
  setupTopButtons();
}
