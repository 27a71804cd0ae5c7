// Kiebitz web view: draws the club page and a table page from the server's JSON
// (/api/stream: server-sent events) and sends an operator's corrections.
"use strict";

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, text) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};
const SVG = "http://www.w3.org/2000/svg";
const svg = (tag, attrs = {}) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

let me = { operator: null, csrf: "" };

async function whoAmI() {
  const r = await fetch("/api/me", { credentials: "same-origin" });
  me = await r.json();
  const who = $("#who");
  who.textContent = "";
  if (me.operator) {
    who.append(`operator ${me.operator} `);
    const f = el("form", { method: "post", action: "/logout", class: "inline" });
    f.append(el("input", { type: "hidden", name: "csrf", value: me.csrf }));
    f.append(el("button", {}, "Log out"));
    who.append(f);
  } else {
    const a = el("a", { href: "/login?next=" + encodeURIComponent(location.pathname) }, "Operator login");
    who.append(a);
  }
  const op = $("#operator");
  if (op) op.hidden = !(me.operator && me.can_send);
}

function side(view, i) {
  return view.score_by === "team" ? `team ${i}` : `seat ${i}`;
}

function cardChip(code) {
  const suit = code.slice(-1);
  const chip = el("span", { class: "card " + (suit === "H" || suit === "D" ? "red" : "black") });
  chip.textContent = code.slice(0, -1) + (SUITS[suit] || suit);
  return chip;
}

// The peg board as its LEDs show it: a row of holes a track, in fives, the front
// peg lit, the back peg lit dimmer, games won as dots, an alert's tracks flashing.
function drawBoard(view) {
  const box = $("#board");
  box.textContent = "";
  const b = view.board;
  if (!b) return;
  if (!b.show_pegs) {
    const d = el("div", { class: "displays" });
    b.displays.forEach((v, i) => d.append(el("span", { class: "display" }, `${side(view, i)}: ${v}`)));
    box.append(d);
    return;
  }
  const holes = b.game_hole || 121;
  // a long street on a wide screen, shorter ones (more rows) on a phone
  const perRow = box.clientWidth < 600 ? 31 : 61;
  const rows = Math.ceil(holes / perRow);
  const step = 10;
  const width = perRow * step + Math.floor(perRow / 5) * 4 + 20;
  const trackH = rows * 14 + 10;
  const s = svg("svg", {
    viewBox: `0 0 ${width} ${b.pegs.length * trackH + 10}`,
    class: "pegboard",
    role: "img",
    "aria-label": "peg board",
  });
  b.pegs.forEach(([front, back], t) => {
    const g = svg("g", {
      class: `track track-${t % 4}` + (b.alert && b.alert_tracks.includes(t) ? " alerting" : ""),
      "data-track": t,
      "data-front": front,
      "data-back": back,
    });
    for (let h = 1; h <= holes; h++) {
      const row = Math.floor((h - 1) / perRow);
      const col = (h - 1) % perRow;
      const x = 14 + col * step + Math.floor(col / 5) * 4;
      const y = 10 + t * trackH + row * 14;
      let cls = "hole";
      if (h === front) cls = "hole front";
      else if (h === back) cls = "hole back";
      g.append(svg("circle", { cx: x, cy: y, r: h === front || h === back ? 4 : 2.2, class: cls }));
    }
    for (let w = 0; w < (b.games_won[t] || 0); w++) {
      g.append(svg("circle", { cx: 4, cy: 10 + t * trackH + w * 6, r: 2.5, class: "won" }));
    }
    s.append(g);
  });
  box.append(s);
  const legend = el("div", { class: "legend" });
  b.pegs.forEach(([front, back], t) => {
    legend.append(el("span", { class: `peg track-${t % 4}`, "data-track": t },
      `${side(view, t)}: ${front}` + (back ? ` (back ${back})` : "") +
      (b.games_won[t] ? `, games ${b.games_won[t]}` : "")));
  });
  box.append(legend);
}

function drawTable(view) {
  $("#game").textContent = `${view.game || ""} · ${view.phase || ""}`;
  const ref = view.status && view.status.referee;
  const refEl = $("#referee");
  refEl.textContent = ref ? `referee ${ref}` : "";
  refEl.className = "status " + (ref || "");
  drawBoard(view);
  const scores = $("#scores");
  scores.textContent = "";
  (view.scores || []).forEach((v, i) => scores.append(el("div", { class: "score" }, `${side(view, i)}: ${v}`)));
  if (view.pad) scores.append(el("div", { class: "pad" }, `pad: ${view.pad.join(" / ")}`));
  $("#turn").textContent = view.turn === null || view.turn === undefined ? "" : `turn: seat ${view.turn}`;
  $("#count").textContent = view.count === null || view.count === undefined ? "" : `count: ${view.count}`;
  const plays = $("#plays");
  plays.textContent = "";
  (view.plays || []).forEach((p) => {
    const d = el("span", { class: "play" });
    d.append(el("small", {}, `seat ${p.seat}`), cardChip(p.card));
    plays.append(d);
  });
  const last = $("#last");
  last.textContent = "";
  (view.last || []).slice().reverse().forEach((line) => {
    last.append(el("li", { class: /^(ALERT|VERDICT)/.test(line) ? "flag" : "" }, line));
  });
  const alerts = $("#alerts");
  alerts.textContent = "";
  (view.verdicts || []).forEach((v) => {
    alerts.append(el("div", { class: "alert verdict" }, `${v.kind} by seat ${v.seat}: ${v.detail || ""}`));
  });
  (view.alerts || []).forEach((a) => {
    const d = el("div", { class: "alert", "data-alert": a.id }, `${a.kind}: ${a.detail}`);
    if (me.operator && me.can_send) {
      const ok = el("button", { "data-command": "confirm", "data-alert": a.id }, "Confirm");
      const no = el("button", { "data-command": "dismiss", "data-alert": a.id }, "Dismiss");
      d.append(" ", ok, no);
    }
    alerts.append(d);
  });
  document.body.dataset.version = view.version;
}

function drawClub(tables) {
  const body = $("#club tbody");
  for (const v of tables) {
    let row = body.querySelector(`tr[data-table="${CSS.escape(v.table)}"]`);
    if (!row) {
      row = el("tr", { "data-table": v.table });
      body.append(row);
    }
    row.textContent = "";
    const link = el("td");
    link.append(el("a", { href: "/tables/" + encodeURIComponent(v.table) }, v.table));
    const ref = (v.status && v.status.referee) || "";
    const alerts = Number(v.alerts) || 0;
    row.append(link, el("td", {}, v.game || ""), el("td", {}, v.phase || ""),
      el("td", {}, (v.scores || []).join(" : ")), el("td", { class: alerts ? "flag" : "" }, String(alerts)),
      el("td", { class: "status " + ref }, ref));
  }
}

async function send(table, body) {
  const r = await fetch(`/api/tables/${encodeURIComponent(table)}/command`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf },
    body: JSON.stringify(body),
  });
  const answer = await r.json();
  $("#said").textContent = r.ok ? `sent ${body.command}` : answer.error;
  return r.ok;
}

function wireOperator(table) {
  document.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-command]");
    if (!b) return;
    ev.preventDefault();
    const body = { command: b.dataset.command };
    if (b.dataset.alert) body.alert = b.dataset.alert;
    send(table, body);
  });
  $("#replace").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    send(table, { command: "replace", event: Number(f.get("event")), old: f.get("old").trim().toUpperCase(), new: f.get("new").trim().toUpperCase() });
  });
  $("#contract").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    send(table, { command: "contract", declarer: Number(f.get("declarer")), contract: f.get("contract").trim(), hand: f.get("hand") === "on" });
  });
}

function follow(url, onView) {
  const source = new EventSource(url);
  source.onmessage = (ev) => onView(JSON.parse(ev.data));
  return source;
}

document.addEventListener("DOMContentLoaded", async () => {
  await whoAmI();
  const page = document.body.dataset.page;
  if (page === "table") {
    const table = document.body.dataset.table;
    wireOperator(table);
    follow(`/api/stream?table=${encodeURIComponent(table)}`, drawTable);
  } else if (page === "club") {
    const r = await fetch("/api/tables");
    drawClub(await r.json());
    follow("/api/stream", (view) => drawClub([{ table: view.table, game: view.game, phase: view.phase, scores: view.scores, alerts: (view.alerts || []).length, status: view.status }]));
  }
});
