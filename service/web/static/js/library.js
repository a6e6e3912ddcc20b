// The library: cards, characters and roles from /v1/rules, the rules text from /web/v1/rules,
// in the language chosen (cards and rules: en, pt, es, fr; English for ru).
import {
  boot, call, rules, cardLang, onLanguage, escapeHtml as h, t, applyI18n,
} from "./core.js";

function text(texts) {
  return texts ? (texts[cardLang()] ?? texts.en ?? "") : "";
}

let renders = 0; // the newest render: a slower, older one must not overwrite its texts

async function render() {
  const mine = ++renders;
  const r = await rules();
  if (mine !== renders) return;
  const doc = r.doc;
  document.getElementById("lib-cards").innerHTML = [...doc.cards, doc.default_weapon]
    .map((c) => `<article class="lib-item card-${h(c.color || "weapon")}" aria-label="${h(text(c.names))}">
      <h3>${h(text(c.names))}</h3><p class="muted">${h(t(`color.${c.color || "weapon"}`))}${c.copies ? " · ×" + c.copies : ""}${c.range ? " · " + h(t("library.range", { n: c.range })) : ""}</p>
      <p>${h(text(c.effect))}</p><p class="hint">${h(text(c.hint))}</p></article>`)
    .join("");
  document.getElementById("lib-characters").innerHTML = doc.characters
    .map((c) => `<article class="lib-item" aria-label="${h(text(c.names))}"><h3>${h(text(c.names))}</h3>
      <p class="muted">♥ ${c.life}</p><p>${h(text(c.ability))}</p><p class="hint">${h(text(c.hint))}</p></article>`)
    .join("");
  document.getElementById("lib-roles").innerHTML = doc.roles
    .map((x) => `<article class="lib-item" aria-label="${h(text(x.names))}"><h3>${h(text(x.names))}</h3><p>${h(text(x.objective))}</p></article>`)
    .concat(doc.modes.map((m) => `<article class="lib-item"><h3>${h(text(m.names))}</h3><p>${h(text(m.description))}</p></article>`))
    .join("");
  const lang = cardLang();
  const rulesText = await call("GET", `/web/v1/rules?lang=${lang}`);
  if (mine !== renders) return;
  // the server renders the Markdown with raw HTML disabled: the text is safe to insert
  const panel = document.getElementById("lib-rules");
  panel.innerHTML = rulesText.html;
  panel.lang = lang; // until the new language's text arrives, the panel says which one it shows
  applyI18n(document);
}

function tabs() {
  for (const b of document.querySelectorAll("[role=tab]")) {
    b.addEventListener("click", () => {
      for (const x of document.querySelectorAll("[role=tab]")) {
        x.setAttribute("aria-selected", String(x === b));
        document.getElementById(`lib-${x.dataset.tab}`).hidden = x !== b;
      }
    });
  }
}

async function main() {
  await boot();
  tabs();
  await render();
  onLanguage(render);
}

main();
