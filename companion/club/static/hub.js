// The hub's page: every table of the club live, the night's standings and its exports.
// Built from the table view's components (/assets/components.js): each table is drawn with
// the same header, scores and sentences said as a table's own screen, from the public state
// the hub received (docs/club.md, "The hub's JSON"). Text only through the DOM builder:
// names come from the tables and are never HTML.
import { h } from "/assets/view.js";
import { renderCommon, renderHeader, renderScores, renderTable } from "/assets/components.js";

// As the table's own screen says it (companion/view/document.py): "Waiting for Ann to
// throw the dice.", "Waiting for the crib to be counted."
function waitingFor(expected, players) {
  const text = expected.trim().replace(/\.$/, "");
  if (!text) return "";
  const first = text.split(/\s+/)[0].replace(/[,:'s]+$/, "");
  return `Waiting for ${players.includes(first) ? text : text.charAt(0).toLowerCase() + text.slice(1)}.`;
}

// A game of the hub as the view's document (docs/json.md): the fields those components read.
export function documentOf(g) {
  return {
    game: g.game, title: g.title, players: g.players, turn: g.over ? null : g.turn,
    over: g.over, winners: g.winners, scores: g.scores,
    waiting: waitingFor(g.expected || "", g.players),
    said: g.last.map((text) => ({ text, refusal: false })),
  };
}

function tableCard(t) {
  const g = t.game;
  const title = h("p", { class: "game-line" },
    h("span", { class: "online" + (t.online ? " on" : ""), title: t.online ? "online" : "offline" }),
    ` Table ${t.table}`, g ? ` · ${g.entries} entries` : "");
  if (!g) return h("article", { "data-table": t.table }, title, h("p", { class: "empty", text: "No game yet." }));
  const doc = documentOf(g);
  return h("article", { "data-table": t.table, "data-entries": g.entries, class: g.over ? "over" : "" },
    title, renderHeader(doc), renderScores(doc), renderCommon(doc, { compact: true }),
    h("a", { class: "whole", href: `#table=${encodeURIComponent(t.table)}`, text: "Whole screen" }));
}

function grid(headings, rows) {
  return h("table", { class: "list" },
    h("tr", {}, headings.map((x) => h("th", { text: x }))),
    rows.map((row) => h("tr", {}, row.map((c) => h("td", { text: c })))));
}

function half(x) {
  return x === null || x === undefined ? "" : String(x).replace(/^0\.5$/, "½").replace(".5", "½");
}

function show(night) {
  document.getElementById("club").textContent = `Club ${night.club}`;
  document.title = `Club ${night.club}`;
  document.getElementById("meta").textContent =
    `${night.connected ? "connected" : "broker lost, reconnecting"} · ${night.tables.length} tables · ${night.applied} entries`;
  document.getElementById("tables").replaceChildren(...(night.tables.length ? night.tables.map(tableCard)
    : [h("p", { class: "empty", text: "No table has published yet." })]));

  const crib = document.getElementById("cribbage");
  crib.hidden = !night.cribbage.length;
  crib.querySelector("div").replaceChildren(grid(
    ["Player", "Played", "Won", "Lost", "Skunks", "Skunked", "Game points", "Spread"],
    night.cribbage.map((r) => [r.player, r.played, r.won, r.lost, r.skunks, r.skunked, r.game_points, r.spread])));

  const chess = document.getElementById("chess");
  const round = night.chess;
  chess.hidden = !round.results.length;
  chess.querySelector("div").replaceChildren(
    grid(["Table", "White", "Black", "Result", "Moves"],
      round.results.map((r) => [r.table, r.white, r.black, r.result.replace("1/2", "½"), r.moves])),
    h("h2", { text: "Crosstable" }),
    grid(["Player", ...round.players.map((_, i) => String(i + 1)), "Total"],
      round.crosstable.map((r) => [r.player,
        ...round.players.map((q) => (q === r.player ? "×" : half(r.against[q]))), half(r.total)])));

  const mono = document.getElementById("monopoly");
  mono.hidden = !night.monopoly.length;
  mono.querySelector("div").replaceChildren(...night.monopoly.map((g) => grid(
    [`Table ${g.table}`, "Worth"],
    g.worths.map((w) => [w.player + (g.winners.includes(w.player) ? " ★" : ""), w.worth]))));
  document.body.dataset.version = String(night.version);
}

async function follow() {
  let version = -1;
  for (;;) {
    try {
      const answer = await fetch(`/api/night?brief=1&after=${version}`, { cache: "no-store" });
      if (!answer.ok) throw new Error(String(answer.status));
      const night = await answer.json();
      version = night.version;
      document.body.classList.remove("offline");
      show(night);
    } catch (err) {
      document.body.classList.add("offline");
      document.getElementById("meta").textContent = "the hub is not answering; trying again";
      await new Promise((resolve) => { setTimeout(resolve, 2000); });
    }
  }
}
// One table's whole screen, drawn by the table view's own renderTable (its board, pegboard or
// track) from the document the hub builds (/api/table/NAME), while the address says
// #table=NAME; back to every table when it no longer does.
function chosen() {
  const m = /^#table=(.+)$/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

let following = false;
let asking = null; // the pending request's AbortController: a new address ends its wait

async function followTable() {
  if (following) return;
  following = true;
  const screen = document.getElementById("screen");
  for (;;) {
    const name = chosen();
    if (name === null) {
      screen.hidden = true;
      document.body.classList.remove("one");
      following = false;
      return;
    }
    let version = -1;
    screen.hidden = false;
    document.body.classList.add("one");
    while (chosen() === name) {
      try {
        asking = new AbortController();
        const answer = await fetch(`/api/table/${encodeURIComponent(name)}?after=${version}`,
          { cache: "no-store", signal: asking.signal });
        if (chosen() !== name) break;
        if (answer.status === 404) { screen.replaceChildren(h("p", { class: "empty", text: `No table ${name}.` })); break; }
        if (!answer.ok) throw new Error(String(answer.status));
        const data = await answer.json();
        version = data.version;
        screen.replaceChildren(
          h("p", { class: "game-line" }, h("a", { href: "#", text: "All tables" }), ` · Table ${name}`),
          data.doc ? renderTable(data.doc)
            : h("p", { class: "empty", text: "This table's whole screen is not available at the hub." }));
        screen.dataset.seq = String(data.doc ? data.doc.seq : 0);
      } catch (err) {
        if (chosen() === name) await new Promise((resolve) => { setTimeout(resolve, 2000); });
      }
    }
    if (chosen() === name) { following = false; return; } // not there: wait for a new address
  }
}
window.addEventListener("hashchange", () => {
  if (asking) asking.abort();
  followTable();
});

follow();
followTable();
