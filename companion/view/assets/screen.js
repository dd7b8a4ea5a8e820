import { connect, h } from "/assets/view.js";
import { renderTable } from "/assets/components.js";

const app = document.getElementById("app");
let join = null;
let last = null;

function draw() {
  if (!last) return;
  const started = performance.now();
  const page = renderTable(last);
  if (join) page.append(joinCodes(join));
  app.replaceChildren(page);
  document.body.dataset.seq = String(last.seq);
  document.body.dataset.drawMs = (performance.now() - started).toFixed(1);
}

function joinCodes(codes) {
  return h("section", { class: "join" }, h("h2", { text: "Join with your phone" }),
    h("div", { class: "codes" }, codes.map((c) =>
      h("figure", {}, h("img", { src: c.qr, alt: `QR code for ${c.player}` }),
        h("figcaption", { text: c.player })))));
}

connect((data) => {
  if (data.join) { join = data.join; draw(); return; }
  last = data;
  draw();
});
