// The replay viewer. The page holds the match's public header (who sits where) in a JSON
// script; each viewer mode's data sits in its own file beside the page ("spectator.js",
// "seat-3.js"), loaded only when that mode is chosen, so a mode shows exactly what its viewer
// saw at the table. A mode file calls BA.replayData(mode, base64 of zlib-compressed JSON); the
// browser's DecompressionStream inflates it (no library, works from file://).
(function () {
  "use strict";

  var BA = (window.BA = window.BA || {});
  var NAMES = window.BA_NAMES || { cards: {}, labels: {}, characters: {}, roles: {}, teams: {}, decisions: {}, upgrades: {} };
  var pending = {};   // mode -> {resolve, reject} while its script loads
  var loaded = {};    // mode -> decoded data with whole frames
  var header = null;
  var state = { mode: null, t: 0 };

  BA.replayData = function (mode, packed) {
    var waiting = pending[mode];
    if (!waiting) return;
    inflate(packed).then(function (data) {
      data.whole = expand(data.frames);
      loaded[mode] = data;
      delete pending[mode];
      waiting.resolve(data);
    }, function (err) {
      delete pending[mode];
      waiting.reject(err);
    });
  };

  function inflate(packed) {
    var bin = atob(packed);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Response(stream).text().then(JSON.parse);
  }

  function expand(frames) {
    var out = [];
    frames.forEach(function (delta, i) {
      if (i === 0) { out.push(delta); return; }
      var prev = out[i - 1];
      var cur = Object.assign({}, prev, delta);
      var changed = delta.p || {};
      cur.p = prev.p.map(function (p, s) {
        return changed[s] ? Object.assign({}, p, changed[s]) : p;
      });
      out.push(cur);
    });
    return out;
  }

  function load(mode) {
    if (loaded[mode]) return Promise.resolve(loaded[mode]);
    if (!/^(spectator|seat-\d+)$/.test(mode)) return Promise.reject(new Error("unknown mode " + mode));
    return new Promise(function (resolve, reject) {
      pending[mode] = { resolve: resolve, reject: reject };
      var tag = document.createElement("script");
      tag.src = mode + ".js";
      tag.onerror = function () {
        delete pending[mode];
        reject(new Error("cannot load " + mode + ".js"));
      };
      document.head.appendChild(tag);
    });
  }

  // -- small DOM helpers -----------------------------------------------------------------------
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "text") node.textContent = attrs[k];
        else if (k === "cls") node.className = attrs[k];
        else node.setAttribute(k, attrs[k]);
      });
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }

  function kindOf(id) { return id.replace(/_\d+$/, ""); }
  function cardName(id) { return NAMES.cards[kindOf(id)] || kindOf(id); }

  function card(id) {
    var label = NAMES.labels[id] || "";
    var red = /[♥♦]/.test(label);
    return el("span", { cls: "card" + (red ? " red" : ""), "data-card": id, title: id }, [
      cardName(id), el("span", { cls: "lab", text: label }),
    ]);
  }

  function cards(ids) {
    return el("span", { cls: "cards" }, ids.map(card));
  }

  function roleBadge(role) {
    return el("span", { cls: "role " + role, text: NAMES.roles[role] || role });
  }

  function seconds(s) {
    if (s === null || s === undefined) return "";
    return s < 1 ? (s * 1000).toFixed(s < 0.01 ? 2 : 0) + " ms" : s.toFixed(2) + " s";
  }

  // -- rendering -------------------------------------------------------------------------------
  function seatPanel(data, frame, s) {
    var p = frame.p[s];
    var who = header.seats[s] || {};
    var mine = data.seat === s;
    var cls = "seat";
    if (frame.turn === s && !frame.over) cls += " turn";
    if (frame.dec && frame.dec[0] === s) cls += " deciding";
    if (!p.a) cls += " dead";
    if (mine) cls += " me";
    var hearts = "♥".repeat(Math.max(0, p.l)) + "♡".repeat(Math.max(0, p.m - p.l));
    var hand;
    if (mine) {
      hand = el("span", { "data-testid": "hand-" + s, "data-count": String(frame.hand.length) }, [
        frame.hand.length ? cards(frame.hand) : el("span", { cls: "hidden-note", text: "empty" }),
      ]);
    } else {
      var backs = [];
      for (var i = 0; i < p.h; i++) backs.push(el("span", { cls: "card-back", "aria-hidden": "true" }));
      hand = el("span", { "data-testid": "hand-" + s, "data-count": String(p.h), title: p.h + " cards, hidden" }, [
        el("span", { cls: "cards" }, backs), " " + p.h,
      ]);
    }
    var rows = [
      el("div", { cls: "who" }, [
        el("b", { text: "#" + s + " " + (who.participant || who.name || "") }),
        p.r ? roleBadge(p.r) : el("span", { cls: "pill", text: "role hidden" }),
      ]),
      el("div", { cls: "char" }, [
        (NAMES.characters[p.c] || [p.c])[0] + (who.kind ? " · " + who.kind : ""),
      ]),
      el("div", { cls: "row" }, [
        el("span", { cls: "life", title: p.l + " of " + p.m + " life", text: hearts }),
        p.a ? null : el("span", { cls: "pill", text: "eliminated" }),
        p.d !== null && p.d !== undefined ? el("span", { cls: "label", text: "  dist " + p.d }) : null,
      ]),
      el("div", { cls: "row" }, [el("span", { cls: "label", text: "hand" }), hand]),
    ];
    if (p.w) rows.push(el("div", { cls: "row" }, [el("span", { cls: "label", text: "weapon" }), cards([p.w])]));
    if (p.ip && p.ip.length) rows.push(el("div", { cls: "row" }, [el("span", { cls: "label", text: "in play" }), cards(p.ip)]));
    if (p.st && p.st.length) {
      rows.push(el("div", { cls: "row" }, [
        el("span", { cls: "label", text: "stars" }),
        p.st.map(function (u) { return u ? (NAMES.upgrades[u] || u) : "★"; }).join(", "),
      ]));
    }
    return el("div", { cls: cls, "data-testid": "seat-" + s }, rows);
  }

  function centerPanel(data, frame) {
    var items = [
      el("span", { text: "Round " + frame.round }),
      el("span", { text: "Deck " + frame.deck }),
      el("span", {}, ["Discard " + frame.disc + " ", frame.top ? card(frame.top) : ""]),
    ];
    if (frame.hn) items.push(el("span", { cls: "pill", text: "High Noon" }));
    if (data.seat !== null && frame.nd && frame.nd.length) {
      items.push(el("span", { text: "Named deputies: " + frame.nd.map(function (s) { return "#" + s; }).join(", ") }));
    }
    if (frame.over) {
      var team = frame.win || "draw";
      items.push(el("span", { cls: "result team-" + team, "data-testid": "result" }, [
        frame.win ? (NAMES.teams[team] || team) + " win" : "Draw",
        frame.winners.length ? " (" + frame.winners.map(function (s) { return "#" + s; }).join(", ") + ")" : "",
      ]));
    }
    return el("div", { cls: "center" }, items);
  }

  function attemptsTable(move, own) {
    if (!move.att || !move.att.length) return null;
    var head = ["#", "outcome", "latency", "tokens in/out", "cost"];
    var body = move.att.map(function (a) {
      return el("tr", {}, [
        el("td", { text: String(a.n) }),
        el("td", { cls: "text " + (a.o === "ok" ? "good" : "bad"), text: a.o }),
        el("td", { text: seconds(a.lat) }),
        el("td", { text: a["in"] + " / " + a.out }),
        el("td", { text: a.usd === null || a.usd === undefined ? "—" : "$" + a.usd.toFixed(5) }),
      ]);
    });
    var table = el("table", { cls: "data" }, [
      el("thead", {}, [el("tr", {}, head.map(function (h, i) { return el("th", { cls: i === 1 ? "text" : "", text: h }); }))]),
      el("tbody", {}, body),
    ]);
    var parts = [table];
    if (own) {
      move.att.forEach(function (a) {
        var bits = [];
        if (a.detail) bits.push(el("div", { cls: "meta", text: "attempt " + a.n + ": " + a.detail }));
        (a.msgs || []).forEach(function (m, k) {
          // A retry's messages repeat the previous answer (shown with its attempt) before the
          // feedback the seat got.
          if (m[0] === "assistant" && k < (a.msgs.length - 1)) return;
          var title = m[0] !== "user" ? m[0] : a.n === 1 && k === 0 ? "prompt" : "feedback";
          bits.push(el("details", {}, [
            el("summary", { text: "attempt " + a.n + " · " + title + " (" + m[1].length + " chars)" }),
            el("pre", { text: m[1] }),
          ]));
        });
        if (a.reply !== undefined && a.reply !== null) {
          bits.push(el("details", { "data-testid": "answer" }, [
            el("summary", { text: "attempt " + a.n + " · answer" }), el("pre", { text: a.reply }),
          ]));
        }
        if (a.refusal) bits.push(el("div", { cls: "meta bad", text: "refusal: " + a.refusal }));
        parts = parts.concat(bits);
      });
    }
    return el("div", {}, parts);
  }

  function decisionPanel(data, frame, t) {
    var n = data.moves.length;
    var panel = el("div", { cls: "panel decision", "data-testid": "decision" });
    if (t >= n) {
      panel.appendChild(el("h3", { text: frame.over ? "The end" : "Stopped" }));
      panel.appendChild(el("p", { cls: "meta", text: frame.over ? "The match is over." : "The record ends here (the match was stopped)." }));
      return panel;
    }
    var m = data.moves[t];
    var own = data.seat === m.seat;
    var who = header.seats[m.seat] || {};
    panel.appendChild(el("h3", { text: "Decision " + (t + 1) + " of " + n }));
    panel.appendChild(el("p", {}, [
      "#" + m.seat + " " + (who.participant || "") + " · ",
      el("b", { text: NAMES.decisions[m.kind] || m.kind }),
    ]));
    var chose = m.move === null || m.move === undefined
      ? el("span", { cls: "hidden-note", text: "a secret move (only its seat sees which)" })
      : el("span", { cls: "move", "data-testid": "move", text: m.move });
    var how = m.how === "autopilot" ? "autopilot" + (m.why ? " (" + m.why + ")" : "") : "chosen by " + (m.by || "the seat");
    panel.appendChild(el("p", {}, ["Move: ", chose, el("br"), el("span", { cls: "meta", text: how + " · " + seconds(m.s) + (m.limit ? " of " + m.limit + " s" : "") })]));
    if (own && m.legal) {
      panel.appendChild(el("div", { cls: "meta", text: m.legal.length + " legal moves" }));
      panel.appendChild(el("div", { cls: "legal" }, m.legal.map(function (id) {
        return el("code", { cls: id === m.move ? "chosen" : "", text: id });
      })));
    }
    if (own && m.reason) panel.appendChild(el("p", {}, [el("span", { cls: "label", text: "reason: " }), m.reason]));
    if (own && m.notes) panel.appendChild(el("p", {}, [el("span", { cls: "label", text: "notes: " }), m.notes]));
    var atts = attemptsTable(m, own);
    if (atts) panel.appendChild(atts);
    if (!own && m.att && m.att.length) {
      panel.appendChild(el("p", { cls: "hidden-note", text: "The prompt and the answer show only in seat #" + m.seat + "'s view: they hold its hand." }));
    }
    return panel;
  }

  function logPanel(data, t) {
    var list = el("ol", { "data-testid": "log" });
    for (var i = 0; i <= t; i++) {
      var lines = data.log[i] || [];
      lines.forEach(function (line, j) {
        var cls = (j === 0 && i > 0 ? "step" : "") + (i === t ? " new" : "");
        list.appendChild(el("li", { cls: cls.trim(), text: line }));
      });
    }
    var panel = el("div", { cls: "panel log" }, [el("h3", { text: "What " + (data.seat === null ? "the table" : "seat #" + data.seat) + " saw" }), list]);
    return panel;
  }

  function render() {
    var data = loaded[state.mode];
    if (!data) return;
    var last = data.whole.length - 1;
    var t = Math.max(0, Math.min(state.t, last));
    state.t = t;
    var frame = data.whole[t];
    var board = document.getElementById("board");
    board.replaceChildren(centerPanel(data, frame));
    frame.p.forEach(function (_, s) { board.appendChild(seatPanel(data, frame, s)); });
    var side = document.getElementById("side");
    var parts = [decisionPanel(data, frame, t)];
    if (data.system) {
      parts.push(el("div", { cls: "panel" }, [el("details", {}, [
        el("summary", { text: "System prompt of seat #" + data.seat + " (" + data.system.length + " chars)" }),
        el("pre", { text: data.system }),
      ])]));
    }
    side.replaceChildren.apply(side, parts);
    document.getElementById("log-wrap").replaceChildren(logPanel(data, t));
    var log = document.querySelector("[data-testid=log]");
    if (log) log.scrollTop = log.scrollHeight;
    var slider = document.getElementById("slider");
    slider.max = String(last);
    slider.value = String(t);
    document.getElementById("step").textContent = "step " + t + " / " + last;
    document.getElementById("first").disabled = document.getElementById("prev").disabled = t === 0;
    document.getElementById("next").disabled = document.getElementById("last").disabled = t === last;
    document.body.setAttribute("data-step", String(t));
    document.body.setAttribute("data-mode", state.mode);
    try {
      history.replaceState(null, "", "#" + state.mode + "/" + t);
    } catch (e) {
      // Some browsers refuse history changes on file:// pages: the viewer works without.
    }
  }

  function setMode(mode) {
    var status = document.getElementById("status");
    status.textContent = "loading…";
    document.body.setAttribute("data-loading", "1");
    return load(mode).then(function () {
      state.mode = mode;
      document.getElementById("mode").value = mode;
      status.textContent = "";
      document.body.removeAttribute("data-loading");
      render();
    }, function (err) {
      status.textContent = String(err.message || err);
      document.body.removeAttribute("data-loading");
    });
  }

  function go(t) { state.t = t; render(); }

  function start() {
    header = JSON.parse(document.getElementById("replay-header").textContent);
    var select = document.getElementById("mode");
    select.addEventListener("change", function () { setMode(select.value); });
    document.getElementById("first").addEventListener("click", function () { go(0); });
    document.getElementById("prev").addEventListener("click", function () { go(state.t - 1); });
    document.getElementById("next").addEventListener("click", function () { go(state.t + 1); });
    document.getElementById("last").addEventListener("click", function () { go(Infinity); });
    document.getElementById("slider").addEventListener("input", function (e) { go(Number(e.target.value)); });
    document.addEventListener("keydown", function (e) {
      if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
      if (e.key === "ArrowRight") go(state.t + 1);
      else if (e.key === "ArrowLeft") go(state.t - 1);
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(Infinity);
    });
    var wanted = /^#(spectator|seat-\d+)\/(\d+)$/.exec(location.hash || "");
    var mode = wanted && select.querySelector('option[value="' + wanted[1] + '"]') ? wanted[1] : "spectator";
    if (wanted) state.t = Number(wanted[2]);
    setMode(mode);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
