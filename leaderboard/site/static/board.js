// Sortable tables: a header cell with class "sortable" holds a button; clicking it (or pressing
// Enter/Space on it) orders the body rows by that column. Cells carry their sort value in
// data-v (a number, or text when the header says data-type="text"); empty values sort last.
(function () {
  "use strict";

  function value(cell, type) {
    if (!cell) return null;
    var raw = cell.hasAttribute("data-v") ? cell.getAttribute("data-v") : cell.textContent.trim();
    if (raw === "" || raw === null) return null;
    if (type === "text") return raw.toLowerCase();
    var n = Number(raw);
    return Number.isFinite(n) ? n : null;
  }

  function sortBy(table, index, type, descending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row, i) { row.dataset.pos = String(i); });
    rows.sort(function (a, b) {
      var x = value(a.cells[index], type);
      var y = value(b.cells[index], type);
      if (x === null && y === null) return Number(a.dataset.pos) - Number(b.dataset.pos);
      if (x === null) return 1;
      if (y === null) return -1;
      var c = x < y ? -1 : x > y ? 1 : 0;
      if (c === 0) return Number(a.dataset.pos) - Number(b.dataset.pos);
      return descending ? -c : c;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  function setUp(table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, index) {
      if (!th.classList.contains("sortable")) return;
      var button = th.querySelector("button");
      if (!button) return;
      button.addEventListener("click", function () {
        var type = th.getAttribute("data-type") || "num";
        var current = th.getAttribute("aria-sort");
        // Numbers start high (best first), text starts at A.
        var first = type === "text" ? "ascending" : "descending";
        var next = current === first ? (first === "ascending" ? "descending" : "ascending") : first;
        Array.prototype.forEach.call(heads, function (other) {
          if (other !== th) other.removeAttribute("aria-sort");
        });
        th.setAttribute("aria-sort", next);
        sortBy(table, index, type, next === "descending");
      });
    });
  }

  document.querySelectorAll("table.sortable-table").forEach(setUp);
})();
