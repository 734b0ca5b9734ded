// verify-claim desk: the arbiter's page. Text from the sheets and from the
// tool's answers is only ever set as text (textContent, value), never as
// markup; the report opens from a Blob of the tool's own HTML.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token");
  const $ = (id) => document.getElementById(id);
  const sheet1 = $("sheet1"), sheet2 = $("sheet2"), moves = $("moves"), note = $("reading-note");
  const written = $("written"), after = $("after"), verdict = $("verdict"), report = $("report");
  const diagram = $("diagram"), repeated = $("repeated");
  let reportUrl = null, readSeq = 0, timer = null;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function headers() {
    const h = { "Content-Type": "application/json" };
    if (token) h.Authorization = "Bearer " + token;
    return h;
  }
  async function post(path, body) {
    const r = await fetch(path, { method: "POST", headers: headers(), body: JSON.stringify(body) });
    let data = null;
    try { data = await r.json(); } catch (_) { data = { error: "the server answered " + r.status }; }
    if (!r.ok) throw new Error(data && data.error ? data.error : "the server answered " + r.status);
    return data;
  }
  function sheets() {
    const s = [sheet1.value];
    if (sheet2.value.trim()) s.push(sheet2.value);
    return s;
  }
  // Where the sheet's game starts: a FEN tag's side to move and move
  // number (the reading's plies count from there).
  function start() {
    const m = /\[FEN\s+"([^"]*)"\]/.exec(sheet1.value);
    const f = m ? m[1].trim().split(/\s+/) : [];
    return { black: f[1] === "b", number: Math.max(1, parseInt(f[5], 10) || 1) };
  }
  // "17...Bf8" for ply 34 from the start position (ply 1 = the first move
  // of the sheet's game).
  function number(ply) {
    const s = start(), k = ply - 1 + (s.black ? 1 : 0);
    return { n: s.number + Math.floor(k / 2), white: k % 2 === 0 };
  }
  function label(ply, san) {
    const m = number(ply);
    return m.white ? m.n + "." + san : m.n + "..." + san;
  }

  // The moves as read: one button each; a click sets the claim point.
  function showReading(r) {
    moves.replaceChildren();
    const best = r.readings && r.readings[0];
    if (!best || !best.moves.length) { note.className = ""; note.textContent = "No moves read yet."; return; }
    const repaired = new Map((best.repairs || []).map((x) => [x.ply, x]));
    const differ = new Map((r.discrepancies || []).map((x) => [x.ply, x]));
    best.moves.forEach((san, i) => {
      const ply = i + 1, name = label(ply, san);
      const li = el("li"), b = el("button", "", name);
      b.type = "button";
      b.dataset.ply = String(ply);
      b.setAttribute("aria-pressed", String(after.value.trim() === name));
      const why = [];
      const rep = repaired.get(ply);
      if (rep) { b.classList.add("repaired"); why.push("repaired: sheet " + rep.sheet + " has " + rep.written); }
      const d = differ.get(ply);
      if (d) { b.classList.add("disagree"); why.push("the sheets disagree: " + (d.sheet1 || "empty") + " / " + (d.sheet2 || "empty")); }
      if (why.length) b.title = why.join("; ");
      b.addEventListener("click", () => {
        after.value = name;
        for (const o of moves.querySelectorAll("button")) o.setAttribute("aria-pressed", String(o === b));
      });
      li.appendChild(b);
      moves.appendChild(li);
    });
    const parts = [best.moves.length + (best.moves.length === 1 ? " ply" : " plies") + " read"];
    if (best.repairs && best.repairs.length) parts.push(best.repairs.length + " repaired");
    if (r.discrepancies && r.discrepancies.length) parts.push(r.discrepancies.length + " where the sheets disagree");
    if (r.clear === false) parts.push("not clear: another reading is as good");
    note.className = "";
    note.textContent = parts.join("; ") + ". Click the move after which the claim was made.";
  }
  async function read() {
    const seq = ++readSeq;
    if (!sheet1.value.trim()) { moves.replaceChildren(); note.className = ""; note.textContent = "Type a scoresheet: its moves appear here."; return; }
    try {
      const r = await post("/api/reconstruct", { sheets: sheets() });
      if (seq === readSeq) showReading(r);
    } catch (e) {
      if (seq !== readSeq) return;
      moves.replaceChildren();
      note.className = "error";
      note.textContent = e.message;
    }
  }
  function later() { clearTimeout(timer); timer = setTimeout(read, 250); }

  // A board from the FEN's first field (chess); other games as text.
  const GLYPH = { K: "♚", Q: "♛", R: "♜", B: "♝", N: "♞", P: "♟", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
  function drawBoard(fen) {
    diagram.replaceChildren();
    diagram.className = "";
    diagram.setAttribute("aria-label", "Position at the claim point: " + fen);
    const rows = fen.split(" ")[0].split("/");
    if (rows.length !== 8) { diagram.className = "text"; diagram.textContent = fen; return; }
    rows.forEach((row, r) => {
      let f = 0;
      for (const c of row) {
        const gap = /[1-8]/.test(c) ? Number(c) : 1;
        for (let k = 0; k < gap; k++, f++) {
          const piece = gap === 1 && GLYPH[c];
          const sq = el("span", ((r + f) % 2 ? "d" : "l") + (piece && c === c.toUpperCase() ? " w" : ""), piece || "");
          sq.setAttribute("aria-hidden", "true");
          diagram.appendChild(sq);
        }
      }
    });
  }

  function line(parent, cls, text) { const p = el("p", cls, text); parent.appendChild(p); return p; }
  function showClaim(c) {
    verdict.replaceChildren();
    const articles = (c.grounds || []).map((g) => g.article + " (" + g.rule.replace(/-/g, " ") + ")");
    if (c.game_over && c.game_over.article) articles.push(c.game_over.article + " (the game had ended: " + String(c.game_over.reason || "").replace(/-/g, " ") + ")");
    if (!c.valid && c.penalty && c.penalty.article) articles.push(c.penalty.article + " (an incorrect claim)");
    line(verdict, "v " + (c.valid ? "valid" : "invalid"),
      (c.valid ? "VALID" : "NOT VALID") + (articles.length ? ": " + articles.join(", ") : "") + " — rules " + c.rules);
    for (const r of c.reasons || []) line(verdict, "", r);
    if (!c.valid && c.penalty) line(verdict, "", "Article " + c.penalty.article + ": " + c.penalty.text.replace(/^[0-9.]+: /, ""));
    const reading = c.reading || {};
    for (const x of reading.repairs || []) {
      line(verdict, "repair", "Repaired: " + label(x.ply, x.read) + " (sheet " + x.sheet + " has \u201c" + x.written + "\u201d)");
    }
    for (const d of reading.discrepancies || []) {
      line(verdict, "discrepancy", "The sheets disagree at move " + number(d.ply).n + (number(d.ply).white ? " (White)" : " (Black)") +
        ": sheet 1 \u201c" + (d.sheet1 || "empty") + "\u201d, sheet 2 \u201c" + (d.sheet2 || "empty") + "\u201d");
    }
    if (reading.alternatives) line(verdict, "", reading.alternatives + " other reading(s) considered.");
    if (c.depends_on_reading) {
      line(verdict, "depends", "The verdict depends on the reading of the sheets: another reading, as good, gives another verdict. Check the sheets where they are repaired or disagree; the arbiter decides.");
    }
    drawBoard(c.fen || "");
    repeated.replaceChildren();
    const reps = c.repetitions_with_written_move && c.repetitions_with_written_move.length >= 3
      ? { list: c.repetitions_with_written_move, with: true } : { list: c.repetitions || [], with: false };
    if (reps.list.length) {
      repeated.appendChild(el("p", "", "The position at the claim point" + (reps.with ? ", with the written move," : "") + " stood " + (reps.list.length === 1 ? "once" : reps.list.length + " times") + ":"));
      const ul = el("ul");
      for (const r of reps.list) ul.appendChild(el("li", "", r.move ? "after " + r.move + " (ply " + r.ply + ")" : "at the start (ply 0)"));
      repeated.appendChild(ul);
    }
  }
  function showError(message) {
    verdict.replaceChildren();
    line(verdict, "v invalid", "Cannot decide");
    line(verdict, "error", message);
    diagram.replaceChildren();
    diagram.setAttribute("aria-label", "no position");
    repeated.replaceChildren();
    report.hidden = true;
  }
  async function decide() {
    const body = { sheets: sheets(), move: written.value, after: after.value };
    const claimant = $("claimant").value, rules = $("rules").value;
    if (claimant) body.claimant = claimant;
    if (rules) body.rules = rules;
    verdict.replaceChildren(el("p", "", "Deciding…"));
    try {
      const d = await post("/api/decide", body);
      showClaim(d.claim);
      if (reportUrl) URL.revokeObjectURL(reportUrl);
      reportUrl = URL.createObjectURL(new Blob([d.report], { type: "text/html" }));
      report.href = reportUrl;
      report.hidden = false;
    } catch (e) {
      showError(e.message);
    }
  }

  sheet1.addEventListener("input", later);
  sheet2.addEventListener("input", later);
  $("decide").addEventListener("click", decide);

  // /desk?game=ID: the live board's record of that game, in the first area.
  const game = new URLSearchParams(location.search).get("game");
  if (game) {
    const q = new URLSearchParams({ id: game });
    fetch("/api/game?" + q.toString(), { headers: headers() })
      .then((r) => r.json().then((j) => ({ ok: r.ok, j })))
      .then(({ ok, j }) => {
        if (!ok) throw new Error(j.error || "no such game");
        sheet1.value = j.record;
        read().then(() => {
          note.textContent = "Loaded from the live board (game " + game + "). The board's record is not on its own the evidence: check it against the scoresheets. " + note.textContent;
        });
      })
      .catch((e) => { note.className = "error"; note.textContent = "The live board's game " + game + ": " + e.message; });
  } else if (sheet1.value.trim()) {
    read();
  }
})();
