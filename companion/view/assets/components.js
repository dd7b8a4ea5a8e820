// The table view's components: one renderer per family of games, each a function of the
// document (docs/json.md, "The table view's document") that returns a DOM node. Reusable by
// any page that has such documents (the big screen, the phones, a club's hub).
import { h, svg } from "/assets/view.js";

export const COLOURS = ["#d62828", "#1d4ed8", "#15803d", "#b45309", "#7c3aed", "#0e7490",
  "#be185d", "#4d7c0f"];
const GROUPS = { brown: "#8b4513", "light-blue": "#87ceeb", pink: "#d93a96", orange: "#f7941d",
  red: "#ed1b24", yellow: "#fef200", green: "#1fb25a", "dark-blue": "#0072bb" };

export function colourOf(doc, name) {
  const i = doc.players.indexOf(name);
  return COLOURS[(i < 0 ? 0 : i) % COLOURS.length];
}

function playerDot(doc, index, label) {
  return h("span", { class: "dot", style: `background:${COLOURS[index % COLOURS.length]}`,
    title: doc.players[index] }, label === undefined ? doc.players[index].slice(0, 1) : label);
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export function cardFace(card) {
  const text = String(card);
  const suit = SUITS[text.slice(-1)];
  if (!suit) return h("span", { class: "card tile", text });
  const red = "HD".includes(text.slice(-1));
  return h("span", { class: "card" + (red ? " red" : "") }, text.slice(0, -1), suit);
}

// ------------------------------------------------------------------ every game

export function renderHeader(doc) {
  const over = doc.over;
  return h("header", { class: "top" },
    h("h1", { text: doc.title }),
    h("p", { class: "waiting" + (over ? " over" : "") },
      over ? (doc.winners.length ? `${doc.winners.join(" and ")} won.` : "The game is over.")
        : doc.waiting));
}

export function renderCommon(doc, opts = {}) {
  const said = doc.said.slice(opts.compact ? -3 : -6);
  return h("section", { class: "common" },
    opts.compact ? null : h("h2", { text: "Said" }),
    h("ol", { class: "said" }, said.map((s) =>
      h("li", { class: s.refusal ? "refusal" : "" }, s.text))));
}

export function renderScores(doc) {
  return h("section", { class: "players" }, h("h2", { text: "Players" }),
    h("table", { class: "scores" }, doc.players.map((name, i) =>
      h("tr", { class: doc.turn === name ? "turn" : "" },
        h("td", {}, playerDot(doc, i)), h("th", { text: name }),
        h("td", { class: "num", text: fmt(doc.scores[i]) })))));
}

function fmt(n) {
  return typeof n === "number" && !Number.isInteger(n) ? n.toFixed(1) : String(n ?? "");
}

export function renderTable(doc) {
  const family = FAMILIES[doc.family] || renderGeneric;
  return h("div", { class: `page family-${doc.family} game-${doc.game}` },
    renderHeader(doc), family(doc));
}

// ------------------------------------------------------------------ generic (cards, dominoes)

const SHOWN = ["trick", "top", "called", "series", "layout", "ends", "melds", "discard",
  "starter", "count", "high_bid", "trump", "target", "row", "shown_pips", "boneyard", "stock",
  "hand_sizes", "hands", "draw_pile", "round", "hand_number", "deal"];

// Hidden fields arrive as counts (docs/json.md): say so.
const LABELS = { hands: "in hand (known to the companion)", boneyard: "boneyard (tiles)", stock: "stock (cards)",
  draw_pile: "draw pile (cards)", hand_sizes: "cards in hand" };

function renderValue(value, doc) {
  if (Array.isArray(value) && doc && value.length === doc.players.length
      && value.every((v) => typeof v === "number")) {
    return h("span", {}, value.map((v, i) => h("span", { class: "per" }, playerDot(doc, i), ` ${v}`)));
  }
  if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === "object" && ("card" in v || "tile" in v))) {
    return h("span", { class: "cards" }, value.map((v) => h("span", { class: "played" },
      typeof v.player === "number" && doc ? playerDot(doc, v.player) : null, cardFace(v.card ?? v.tile))));
  }
  if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === "object" && Array.isArray(v.cards))) {
    return h("span", {}, value.map((v) => {
      const who = v.owner ?? v.player;
      return h("span", { class: "meld" }, typeof who === "number" && doc ? playerDot(doc, who) : null,
        v.cards.map(cardFace));
    }));
  }
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === "string")) return h("span", { class: "cards" }, value.map(cardFace));
    return h("span", { text: value.map((v) => (typeof v === "object" ? JSON.stringify(v) : v)).join(", ") });
  }
  if (value && typeof value === "object") return h("span", { text: JSON.stringify(value) });
  return h("span", { text: String(value) });
}

function renderGeneric(doc) {
  const state = doc.state;
  const empty = (v) => v === null || v === "" || (Array.isArray(v) && v.every((x) => x === null));
  const rows = SHOWN.filter((k) => k in state && !empty(state[k]))
    .map((k) => h("tr", {}, h("th", { text: LABELS[k] || k.replaceAll("_", " ") }), h("td", {}, renderValue(state[k], doc))));
  return h("div", { class: "layout" },
    h("section", { class: "main tablefelt" }, h("table", { class: "facts" }, rows)),
    h("aside", {}, renderScores(doc), renderCommon(doc)));
}

// ------------------------------------------------------------------ Monopoly

function cellPosition(i) {
  if (i <= 10) return [11, 11 - i];
  if (i <= 20) return [11 - (i - 10), 1];
  if (i <= 30) return [1, 1 + (i - 20)];
  return [1 + (i - 30), 11];
}

function short(name) {
  return name.replace(/ Avenue$| Place$| Gardens$| Railroad$| Company$/, "").replace("Community Chest", "Chest");
}

// A square's name in a size that fits it whole: broken mid-word ("Ventno r") it cannot be read
// from across the room.
function nameSize(name) {
  const longest = Math.max(...name.split(" ").map((w) => w.length));
  return longest > 12 ? " xxlong" : longest > 10 ? " xlong" : longest > 6 ? " long" : "";
}

function renderMonopoly(doc) {
  const st = doc.state;
  const ex = doc.extra;
  const money = (n) => `${ex.currency}${n}`;
  const tokens = {};
  st.players.forEach((p, i) => { if (!p.bankrupt) (tokens[p.position] ||= []).push(i); });
  const cells = st.spaces.map((s) => {
    const [row, col] = cellPosition(s.index);
    const group = ex.groups[s.index];
    const owned = s.owner !== null && s.owner !== undefined;
    const side = s.index < 10 ? "bottom" : s.index < 20 ? "left" : s.index < 30 ? "top" : "right";
    return h("div", { class: `space ${side}` + (owned ? " owned" : "") + (s.mortgaged ? " mortgaged" : "")
        + (s.index % 10 === 0 ? " corner" : ""),
      style: `grid-row:${row};grid-column:${col};` + (owned ? `--owner:${COLOURS[s.owner % COLOURS.length]}` : ""),
      "data-space": s.index },
      group ? h("div", { class: "band", style: `background:${GROUPS[group] || "#999"}` },
        s.hotel ? h("span", { class: "hotel", title: "hotel" }) : null,
        Array.from({ length: s.houses || 0 }, () => h("span", { class: "house", title: "house" }))) : null,
      h("div", { class: "name" + nameSize(short(s.name)), text: short(s.name) }),
      s.mortgaged ? h("div", { class: "mortgage", text: "MORTGAGED" }) : null,
      owned ? h("div", { class: "owner", text: doc.players[s.owner] }) : null,
      (tokens[s.index] || []).length ? h("div", { class: "tokens" },
        tokens[s.index].map((p) => playerDot(doc, p, st.players[p].in_jail ? "J" : undefined))) : null);
  });
  const pending = st.pending;
  let deal = null;
  if (pending && pending.type === "auction") {
    const what = pending.space !== null ? st.spaces[pending.space].name : `a ${pending.building}`;
    deal = h("div", { class: "deal" }, h("h3", { text: `Auction: ${what}` }),
      h("p", { text: pending.high_bidder !== null
        ? `High bid ${money(pending.high_bid)} by ${doc.players[pending.high_bidder]}` : "No bid yet" }),
      h("p", { text: `Bidding: ${pending.bidders.map((b) => doc.players[b]).join(", ")}` }));
  } else if (pending && pending.type === "trade") {
    deal = h("div", { class: "deal" }, h("h3", { text: "Trade offered" }),
      h("p", { text: doc.said.length ? doc.said[doc.said.length - 1].text : "" }),
      h("p", { text: `${doc.players[pending.player]} to accept or reject` }));
  }
  const centre = h("div", { class: "centre" },
    h("div", { class: "bank" }, h("span", { text: `Bank: ${st.bank.houses} houses, ${st.bank.hotels} hotels left` })),
    deal,
    h("h3", { text: "Last payments" }),
    h("ol", { class: "payments" }, ex.payments.slice(-5).map((t) => h("li", { text: t }))),
    st.why ? h("p", { class: "why", text: `Why: ${st.why}` }) : null);
  const board = h("div", { class: "monopoly-board" }, cells, centre);
  const players = h("section", { class: "players" }, h("h2", { text: "Players" }),
    st.players.map((p, i) => h("div", { class: "mplayer" + (doc.turn === p.name ? " turn" : "") + (p.bankrupt ? " out" : ""),
      style: `--owner:${COLOURS[i % COLOURS.length]}` },
      h("div", { class: "who" }, playerDot(doc, i), h("strong", { text: p.name }),
        p.in_jail ? h("span", { class: "jail", text: "IN JAIL" }) : null,
        p.bankrupt ? h("span", { class: "jail", text: "BANKRUPT" }) : null),
      h("div", { class: "money" }, h("span", { class: "cash", text: money(p.cash) }),
        h("span", { class: "worth", text: `worth ${money(ex.worth[i])}` })),
      h("div", { class: "deeds" }, ex.deeds[i].map((s) => h("span", {
        class: "deed" + (st.spaces[s].mortgaged ? " mortgaged" : ""),
        style: `border-color:${GROUPS[ex.groups[s]] || "#777"}` }, short(st.spaces[s].name)))))));
  return h("div", { class: "layout" }, h("section", { class: "main" }, board),
    h("aside", {}, players, renderCommon(doc)));
}

// ------------------------------------------------------------------ cribbage

function renderPegboard(doc) {
  const ex = doc.extra;
  const target = doc.state.target || 121;
  const width = 1200, row = 92, left = 30, step = (width - left - 20) / target;
  const rows = ex.pegs.map((pegs, side) => {
    const y = 62 + side * row;
    const colour = COLOURS[(doc.state.sides[side][0] || 0) % COLOURS.length];
    const holes = [];
    for (let n = 1; n <= target; n += 1) {
      holes.push(svg("circle", { cx: left + n * step, cy: y, r: n % 5 === 0 ? 3.2 : 2.2, fill: "#5b3a1a" }));
    }
    const peg = (score, back) => svg("circle", { cx: left + Math.min(score, target) * step, cy: y,
      r: back ? 9 : 12, fill: colour, opacity: back ? 0.55 : 1, stroke: "#111", "stroke-width": 2 });
    return [svg("rect", { x: 8, y: y - 26, width: width - 16, height: 52, rx: 10, fill: "#d9a766" }),
      holes, peg(pegs[1], true), peg(pegs[0], false),
      svg("text", { x: 16, y: y - 30, "font-size": 26, "font-weight": "bold", fill: "#fff" },
        `${ex.sides[side].join(" & ")}: ${pegs[0]}` + (pegs[1] !== pegs[0] ? ` (was ${pegs[1]})` : ""))];
  });
  return svg("svg", { viewBox: `0 0 ${width} ${30 + ex.pegs.length * row}`, class: "pegboard" }, rows);
}

function renderCribbage(doc) {
  const st = doc.state;
  const ex = doc.extra;
  const shows = ex.shows.map((s) => h("div", { class: "show" },
    h("h3", { text: `${doc.players[s.player]}${s.crib ? "'s crib" : ""}: ${s.total}` }),
    h("div", { class: "cards" }, s.cards.map(cardFace)),
    h("ol", { class: "phrases" }, s.phrases.map((p) => h("li", { text: `${p.words} (${p.running})` })))));
  return h("div", { class: "layout" },
    h("section", { class: "main" }, renderPegboard(doc),
      h("div", { class: "crib-row" },
        h("div", { class: "count" }, h("span", { class: "label", text: "Count" }), h("span", { class: "big", text: String(st.count) })),
        h("div", {}, h("span", { class: "label", text: "In play" }), h("div", { class: "cards" }, st.series.map(cardFace))),
        h("div", {}, h("span", { class: "label", text: "Starter" }), h("div", { class: "cards" }, st.starter ? cardFace(st.starter) : "—")),
        h("div", {}, h("span", { class: "label", text: "Crib" }), st.crib ? h("span", { class: "big", text: `${st.crib} cards` }) : null,
          h("p", { text: `${ex.dealer}'s crib; ${ex.next_dealer} deals next` }))),
      shows.length ? h("section", { class: "shows" }, shows) : null),
    h("aside", {}, renderScores(doc), renderCommon(doc)));
}

// ------------------------------------------------------------------ chess and boards

function renderChess(doc) {
  const ex = doc.extra;
  const parsed = new DOMParser().parseFromString(ex.svg, "image/svg+xml").documentElement;
  const board = document.importNode(parsed, true);
  board.setAttribute("class", "chessboard");
  const moves = [];
  for (let i = 0; i < ex.moves.length; i += 2) {
    moves.push(h("li", {}, `${ex.moves[i]} ${ex.moves[i + 1] || ""}`));
  }
  return h("div", { class: "layout" },
    h("section", { class: "main board-main" }, board),
    h("aside", {}, renderScores(doc),
      h("section", {}, h("h2", { text: "Captured" }),
        h("p", { class: "captured", text: ex.captured.white.join(" ") || "—" }),
        h("p", { class: "captured", text: ex.captured.black.join(" ") || "—" })),
      h("section", {}, h("h2", { text: "Moves" }), h("ol", { class: "moves" }, moves.slice(-12))),
      renderCommon(doc)));
}

const PIECES = { w: "⛀", W: "⛁", b: "⛂", B: "⛃", x: "●", o: "●", X: "●", O: "●" };

function renderBoard(doc) {
  const ex = doc.extra;
  const grid = h("div", { class: `grid ${ex.kind}`, style: `--cols:${(ex.grid[0] || "").length}` },
    ex.grid.map((rowText) => Array.from(rowText).map((c) => {
      if (ex.kind === "pegs") return h("div", { class: "cell " + (c === " " ? "off" : c === "." ? "hole" : "peg") });
      if (ex.kind === "discs") {
        const who = c === "." ? "" : "RXrx1".includes(c) ? "p0" : "p1";
        return h("div", { class: "cell slot" }, who ? h("span", { class: `disc ${who}` }) : null);
      }
      return h("div", { class: "cell " + (c === " " ? "light" : "dark") },
        c === " " || c === "." ? null : h("span", { class: `man ${c.toLowerCase() === "w" ? "white" : "black"}${c === c.toUpperCase() ? " king" : ""}` },
          c === c.toUpperCase() ? "♛" : ""));
    })));
  return h("div", { class: "layout" },
    h("section", { class: "main board-main" }, grid),
    h("aside", {}, renderScores(doc),
      ex.captured ? h("section", {}, h("h2", { text: "Pieces lost" }),
        Object.entries(ex.captured).map(([who, n]) => h("p", { class: "lost", text: `${who}: ${n}` }))) : null,
      h("section", {}, h("h2", { text: "Moves" }), h("ol", { class: "moves" }, ex.moves.slice(-12).map((m) => h("li", { text: m })))),
      renderCommon(doc)));
}

// ------------------------------------------------------------------ race and pawn games

function renderRace(doc) {
  const ex = doc.extra;
  const positions = doc.state.positions || [];
  const n = ex.squares;
  const cols = 10;
  const rows = Math.ceil(n / cols);
  const cells = [];
  for (let sq = 1; sq <= n; sq += 1) {
    const r = Math.floor((sq - 1) / cols);
    const c = r % 2 === 0 ? (sq - 1) % cols : cols - 1 - ((sq - 1) % cols);
    const jump = ex.jumps[String(sq)];
    const mark = (ex.marks || {})[String(sq)];
    const here = positions.map((p, i) => (p === sq ? i : -1)).filter((i) => i >= 0);
    cells.push(h("div", { class: "square" + (jump ? (jump.to > sq ? " ladder" : " snake") : mark ? " marked" : ""),
      style: `grid-row:${rows - r};grid-column:${c + 1}` },
      h("span", { class: "num", text: String(sq) }),
      jump ? h("span", { class: "jump", text: `${jump.to > sq ? "▲" : "▼"} ${jump.to}` }) : null,
      jump && jump.name ? h("span", { class: "mark", text: jump.name }) : null,
      mark ? h("span", { class: "mark", text: mark }) : null,
      here.length ? h("div", { class: "tokens" }, here.map((i) => playerDot(doc, i))) : null));
  }
  const start = positions.map((p, i) => (p === 0 ? i : -1)).filter((i) => i >= 0);
  return h("div", { class: "layout" },
    h("section", { class: "main" }, h("div", { class: "race", style: `--cols:${cols}` }, cells),
      start.length ? h("p", { class: "start" }, "Not yet on the board: ", start.map((i) => playerDot(doc, i))) : null),
    h("aside", {}, renderScores(doc), renderCommon(doc)));
}

const NAMED = { Red: "#d62828", Blue: "#1d4ed8", Green: "#15803d", Yellow: "#eab308" };

function pawnDot(row, pawn) {
  return h("span", { class: "dot pawn", style: `background:${NAMED[row.colour] || "#555"}`,
    title: `${row.player} ${pawn.pawn}` }, pawn.pawn);
}

// A loop track round the edge of a square (Ludo, Sorry!): square 1 at the bottom left corner,
// counting clockwise; the middle shows each colour's start area, home column and home.
function renderPawns(doc) {
  const ex = doc.extra;
  const side = ex.track / 4;
  const cells = [];
  const at = {};
  const starts = {};
  ex.rows.forEach((row) => {
    starts[row.start] = row;
    row.pawns.forEach((p) => { if (p.place === "track") (at[p.square] ||= []).push([row, p]); });
  });
  for (let sq = 1; sq <= ex.track; sq += 1) {
    const k = sq - 1;
    const s = Math.floor(k / side), o = k % side;
    const [r, c] = s === 0 ? [side + 1 - o, 1] : s === 1 ? [1, 1 + o] : s === 2 ? [1 + o, side + 1] : [side + 1, side + 1 - o];
    const start = starts[sq];
    cells.push(h("div", { class: "tsq" + (start ? " start" : ""),
      style: `grid-row:${r};grid-column:${c};` + (start ? `background:${NAMED[start.colour] || "#999"}` : "") },
      h("span", { class: "num", text: String(sq) }),
      (at[sq] || []).map(([row, p]) => pawnDot(row, p))));
  }
  const middle = h("div", { class: "track-middle", style: `grid-row:2 / ${side + 1};grid-column:2 / ${side + 1}` },
    ex.rows.map((row) => {
      const by = (place) => row.pawns.filter((p) => p.place === place);
      return h("div", { class: "nest", style: `border-color:${NAMED[row.colour] || "#999"}` },
        h("h3", { text: `${row.player} (${row.colour})` }),
        h("p", {}, "Start: ", by("start").map((p) => pawnDot(row, p))),
        h("p", {}, "Home stretch: ", by("lane").map((p) => h("span", {}, pawnDot(row, p), ` ${p.step} `))),
        h("p", {}, "Home: ", by("home").map((p) => pawnDot(row, p))));
    }));
  return h("div", { class: "layout" },
    h("section", { class: "main" }, h("div", { class: "track", style: `--side:${side + 1}` }, cells, middle)),
    h("aside", {}, renderScores(doc), renderCommon(doc)));
}

// ------------------------------------------------------------------ dice

const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

function renderDice(doc) {
  const st = doc.state;
  const dice = st.dice || [];
  const kept = st.kept || [];
  const throwRow = h("div", { class: "throw" }, dice.map((v, i) => typeof v === "number"
    ? h("span", { class: "die" + (kept.includes(i) ? " kept" : ""), text: FACES[v] || String(v) })
    : h("span", { class: "pokerdie" + (String(v).length > 1 ? " wide" : ""), text: String(v) })));
  let forms = null;
  if (st.forms) {
    forms = h("table", { class: "forms" },
      h("tr", {}, h("th", {}), doc.players.map((p, i) => h("th", { class: doc.turn === p ? "turn" : "" }, playerDot(doc, i), ` ${p}`))),
      doc.extra.boxes.map((b) => h("tr", {}, h("th", { text: b.name }),
        st.forms.map((f) => h("td", { class: "num", text: b.key in f.filled ? String(f.filled[b.key]) : f.crossed.includes(b.key) ? "✗" : "" })))),
      h("tr", { class: "total" }, h("th", { text: "Bonus" }), st.forms.map((f) => h("td", { class: "num", text: String(f.bonus) }))),
      h("tr", { class: "total" }, h("th", { text: "Total" }), st.forms.map((f) => h("td", { class: "num", text: String(f.total) }))));
  } else {  // Poker Dice: the hand thrown, who is still in, hands won towards the match
    const inHand = (st.in_hand || []).map((i) => doc.players[i]);
    forms = h("table", { class: "facts" },
      h("tr", {}, h("th", { text: "hand" }), h("td", { class: "big-text", text: st.hand || "—" })),
      h("tr", {}, h("th", { text: "in this hand" }), h("td", { text: inHand.join(", ") })),
      h("tr", {}, h("th", { text: "hands won" }), h("td", {}, renderValue(st.hands_won, doc))),
      h("tr", {}, h("th", { text: "hands to win" }), h("td", { text: String(st.hands_to_win) })));
  }
  return h("div", { class: "layout" },
    h("section", { class: "main" }, h("h2", { text: "Current throw" }), throwRow, forms),
    h("aside", {}, renderScores(doc), renderCommon(doc)));
}

export const FAMILIES = {
  monopoly: renderMonopoly,
  cribbage: renderCribbage,
  chess: renderChess,
  board: renderBoard,
  race: renderRace,
  pawns: renderPawns,
  dice: renderDice,
  table: renderGeneric,
};
