// The page's plumbing, shared by the big screen, the phones (and later a club's hub):
// a tiny DOM builder and the websocket that brings each new document.

export function h(tag, attrs, ...children) {
  const ns = attrs && attrs.svg ? "http://www.w3.org/2000/svg" : null;
  const el = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "svg" || value === null || value === undefined || value === false) continue;
    if (key === "onclick") el.addEventListener("click", value);
    else if (key === "text") el.textContent = value;
    else if (key === "style") el.style.cssText = value; // CSSOM: allowed by the CSP

    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function svg(tag, attrs, ...children) {
  return h(tag, { ...attrs, svg: true }, ...children);
}

// The token is the page's own path: /t/TOKEN or /p/TOKEN; the socket is /ws/TOKEN.
export function connect(onMessage) {
  const token = location.pathname.split("/").pop();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let socket = null;
  let wait = 250;
  const api = {
    send(data) {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(data));
    },
  };
  function open() {
    socket = new WebSocket(`${scheme}://${location.host}/ws/${token}`);
    socket.onopen = () => { wait = 250; document.body.classList.remove("offline"); };
    socket.onmessage = (event) => {
      const data = JSON.parse(event.data);
      onMessage(data, api);
      if (typeof data.seq === "number") api.send({ ack: data.seq });
    };
    socket.onclose = () => {
      document.body.classList.add("offline");
      setTimeout(open, wait);
      wait = Math.min(wait * 2, 5000);
    };
  }
  open();
  return api;
}
