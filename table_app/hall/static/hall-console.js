// The hall console: choose the feature table of the broadcast overlay. Its session and CSRF
// token are console-session.js's, as on the referee console.
"use strict";

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
  if (!(await openConsoleSession())) {
    return;
  }
  await refresh();
  setInterval(refresh, 5000);
}

start();
