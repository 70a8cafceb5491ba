// The hall console: choose the feature table of the broadcast overlay. The session cookie from
// the login form authorises it and the session's CSRF token goes with each request, as on the
// referee console.
"use strict";

let csrf = "";

async function choose(table) {
  const response = await fetch("/api/console/feature", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Jantaku-CSRF": csrf },
    credentials: "same-origin",
    body: JSON.stringify({ table }),
  });
  if (response.status === 401) { location.reload(); return; }
  const reply = await response.json();
  const box = document.getElementById("reply");
  box.textContent = reply.accepted ? `${table} is on the overlay` : reply.error;
  box.className = "reply " + (reply.accepted ? "accepted" : "refused");
  await refresh();
}

async function refresh() {
  const hall = await (await fetch("/api/hall")).json();
  document.getElementById("featured").textContent = hall.featured || "none";
  document.getElementById("choices").replaceChildren(...hall.tables.map((card) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.table = card.table;
    button.textContent = card.table + (card.table === hall.featured ? " ✓" : "");
    button.onclick = () => choose(card.table);
    return button;
  }));
}

async function start() {
  const session = await fetch("/api/console/session", { credentials: "same-origin" });
  if (!session.ok) {
    document.getElementById("login").hidden = false;
    return;
  }
  csrf = (await session.json()).csrf || "";
  document.getElementById("desk").hidden = false;
  document.getElementById("logout").onclick = async () => {
    await fetch("/api/console/logout", { method: "POST", headers: { "X-Jantaku-CSRF": csrf }, credentials: "same-origin" });
    location.reload();
  };
  await refresh();
  setInterval(refresh, 5000);
}

start();
