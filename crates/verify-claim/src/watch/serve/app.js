// verify-claim watch --serve: the live board. Text from records is only
// ever set as text (textContent), never as markup.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token");
  const q = (more) => {
    const p = new URLSearchParams(more || "");
    if (token) p.set("token", token);
    const s = p.toString();
    return s ? "?" + s : "";
  };
  const ALERT = new Set(["game-ended", "moves-after-end", "illegal-move", "claim-available",
    "record-error", "limit-reached", "flag-fall", "low-time"]);
  const WARN = new Set(["repetition-warning", "count-warning"]);
  const isAlert = (e) => ALERT.has(e.kind) || (e.kind === "result-entered" && e.agrees === false);
  const boards = new Map(); // id -> {data, events, unseen, el}
  // Seen marks by event key (RUN-N: the watch's run and the event's
  // number), so that a restarted watch's events are never taken as seen.
  const seen = new Set(JSON.parse(sessionStorage.getItem("vc-seen") || "[]"));
  const snapshot = document.body.dataset.snapshot === "1";
  let run = "";
  let source = null;
  const grid = document.getElementById("grid");
  const status = document.getElementById("status");
  const filter = document.getElementById("filter");
  let lastId = 0;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function beep() {
    if (!document.getElementById("sound").checked) return;
    try {
      const a = new AudioContext(), o = a.createOscillator();
      o.connect(a.destination); o.frequency.value = 880; o.start(); o.stop(a.currentTime + 0.15);
    } catch (_) { /* no sound */ }
  }
  function key(e) { return e.file + "#" + (e.board || ""); }
  function entry(id) {
    let b = boards.get(id);
    if (!b) { b = { data: null, events: [], el: null }; boards.set(id, b); }
    return b;
  }
  function ek(e) { return run + "-" + e.id; }
  function unseen(b) { return b.events.filter((e) => isAlert(e) && !seen.has(ek(e))).length; }
  function keep() { sessionStorage.setItem("vc-seen", JSON.stringify([...seen].slice(-5000))); }
  function draw(b) {
    const d = b.data;
    if (!d) return;
    if (!b.el) { b.el = el("article", "board"); b.el.dataset.id = d.id; grid.appendChild(b.el); }
    const a = b.el; a.replaceChildren();
    const n = unseen(b);
    a.classList.toggle("alert", n > 0);
    const h = el("h2");
    h.appendChild(el("span", "", "Board " + d.board));
    h.appendChild(el("span", "", d.plies + (d.plies === 1 ? " ply" : " plies")));
    a.appendChild(h);
    if (d.tournament) a.appendChild(el("div", "meta tournament", d.tournament));
    a.appendChild(el("div", "meta players", (d.white || "?") + " – " + (d.black || "?")));
    const svg = el("div", "diagram");
    svg.innerHTML = d.look.svg; // drawn by the tool, titles escaped there
    a.appendChild(svg);
    const L = d.look;
    const clocks = [];
    if (L.clock_white) clocks.push("White " + L.clock_white);
    if (L.clock_black) clocks.push("Black " + L.clock_black);
    if (clocks.length) a.appendChild(el("div", "meta clocks", "Clocks: " + clocks.join(" · ")));
    a.appendChild(el("div", "meta count", "Count: " + L.count_text));
    if (L.twice.length) a.appendChild(el("div", "meta twice", "Stood twice: " + L.twice.map((t) => "after " + t.after).join(", ")));
    a.appendChild(el("div", "moves", L.last_moves.join(" ")));
    a.appendChild(el("div", "meta state", d.state));
    // The arbiter's desk with this game's record loaded (issue 43).
    const desk = el("a", "desk", "Decide a claim on board " + d.board);
    desk.href = "/desk" + q({ game: d.id });
    desk.target = "_blank";
    a.appendChild(desk);
    for (const e of b.events.slice(-6)) {
      const cls = "ev" + (isAlert(e) ? " alert" : "") + (WARN.has(e.kind) ? " warn" : "") + (isAlert(e) && !seen.has(ek(e)) ? " new" : "");
      const p = el("div", cls, "ply " + e.ply + ": " + e.message);
      p.dataset.kind = e.kind;
      a.appendChild(p);
    }
    if (n > 0) {
      const btn = el("button", "seen", "Mark " + n + " seen");
      btn.addEventListener("click", () => {
        for (const e of b.events) seen.add(ek(e));
        keep();
        draw(b); order();
      });
      a.appendChild(btn);
    }
    show(b);
  }
  function show(b) {
    const f = filter.value.trim().toLowerCase();
    const d = b.data;
    const text = [d.board, d.white, d.black, d.file, d.round, d.tournament].join(" ").toLowerCase();
    b.el.hidden = f !== "" && !text.includes(f);
  }
  function order() {
    const list = [...boards.values()].filter((b) => b.el);
    list.sort((x, y) => (unseen(y) > 0) - (unseen(x) > 0) || x.data.id.localeCompare(y.data.id, undefined, { numeric: true }));
    for (const b of list) grid.appendChild(b.el);
    document.getElementById("count").textContent = list.length + " boards · " +
      list.filter((b) => unseen(b) > 0).length + " with open alerts";
  }
  function other(e) {
    const s = document.getElementById("other");
    s.hidden = false;
    s.appendChild(el("div", "ev alert new", e.file + ": " + e.kind + ": " + e.message));
  }
  function onEvent(e) {
    if (e.id <= lastId) return;
    lastId = e.id;
    if (!e.board) { other(e); return; }
    const b = entry(key(e));
    b.events.push(e);
    if (b.events.length > 50) b.events.shift();
    if (isAlert(e)) beep();
    draw(b); order();
  }
  // Marks every alert seen (the header's button; "#seen" in the URL does
  // the same at load).
  function allSeen() {
    for (const b of boards.values()) for (const e of b.events) seen.add(ek(e));
    keep();
    for (const b of boards.values()) draw(b);
    order();
  }
  document.getElementById("all-seen").addEventListener("click", allSeen);
  filter.addEventListener("input", () => { for (const b of boards.values()) if (b.el) show(b); });
  // The state, then the stream from its last event. A restarted watch
  // answers an old resume id with `event: reset`: everything is loaded
  // again. The printable snapshot (/print) draws the state once, with no
  // stream.
  function load() {
    if (source) { source.close(); source = null; }
    fetch("/state" + q()).then((r) => r.json()).then((s) => {
      for (const b of boards.values()) if (b.el) b.el.remove();
      boards.clear();
      document.getElementById("other").replaceChildren();
      run = s.run || "";
      for (const d of s.boards) { const b = entry(d.id); b.data = d; b.events = d.events || []; draw(b); }
      for (const e of s.other_events || []) other(e);
      lastId = s.last_event_id;
      order();
      if (location.hash === "#seen") allSeen();
      if (snapshot) {
        status.textContent = "snapshot of " + new Date().toISOString().slice(0, 19).replace("T", " ") + " UTC (not updated)";
        return;
      }
      const src = new EventSource("/events" + q({ boards: "1", after: run + "-" + lastId }));
      source = src;
      src.onopen = () => { status.textContent = "live"; };
      src.onerror = () => { status.textContent = "reconnecting…"; };
      src.addEventListener("board", (m) => { const d = JSON.parse(m.data); const b = entry(d.id); b.data = d; draw(b); order(); });
      src.addEventListener("lost", (m) => { status.textContent = "missed " + JSON.parse(m.data).missed + " events (older than the server keeps)"; });
      src.addEventListener("reset", () => { status.textContent = "the watch was restarted: reloading"; load(); });
      src.onmessage = (m) => {
        const [r, n] = m.lastEventId.split("-");
        if (r !== run) { load(); return; }
        const e = JSON.parse(m.data); e.id = Number(n); onEvent(e);
      };
    }).catch((err) => { status.textContent = "cannot load the state: " + err; });
  }
  load();
})();
