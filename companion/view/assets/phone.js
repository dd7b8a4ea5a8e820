import { connect, h } from "/assets/view.js";
import { renderCommon, cardFace } from "/assets/components.js";

const app = document.getElementById("app");
let api = null;

function tap(command) {
  api.send({ command });
}

function draw(doc) {
  const me = doc.me;
  const input = h("input", { type: "text", name: "command", autocomplete: "off",
    placeholder: "or type a command", "aria-label": "command" });
  const form = h("form", { class: "typed" }, input, h("button", { type: "submit", text: "Send" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) tap(input.value.trim());
    input.value = "";
  });
  const choices = me.choices.map((c) =>
    h("button", { class: "choice", "data-command": c.command, onclick: () => tap(c.command) },
      c.label));
  app.replaceChildren(h("div", { class: "phone-page" },
    h("header", {}, h("h1", { text: me.player }),
      h("p", { class: "turn" + (doc.turn_index === me.index ? " mine" : ""),
        text: doc.turn_index === me.index ? `Your turn. ${doc.expected}` : (doc.waiting || "") })),
    me.hand ? h("section", { class: "hand" }, h("h2", { text: "Your hand" }),
      h("div", { class: "cards" }, me.hand.map(cardFace))) : null,
    h("section", { class: "choices" }, choices.length ? choices
      : h("p", { class: "muted", text: me.pending ? "Joining the table…" : "Nothing to choose now." })),
    form,
    renderCommon(doc, { compact: true })));
  document.body.dataset.seq = String(doc.seq);
}

api = connect((data) => { if (data.me) draw(data); });
