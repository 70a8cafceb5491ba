// The referee console; its session and CSRF token are console-session.js's.
"use strict";

function say(text, ok) {
  const reply = document.getElementById("reply");
  reply.textContent = text;
  reply.className = "reply " + (ok ? "ok" : "refused");
}

async function act(action, body) {
  const response = await fetch(`/api/console/${action}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Jantaku-CSRF": csrf },
    credentials: "same-origin",
    body: JSON.stringify(body || {}),
  });
  if (response.status === 401) {
    location.reload(); // the session expired or was logged out: back to the login form
    return;
  }
  const data = await response.json();
  if (response.ok) say(`${action}: accepted ${data.reason || ""}`, true);
  else say(`${action}: ${response.status} ${data.reason || data.error}`, false);
}

function draw(view) {
  jantaku.header(view);
  jantaku.text("profile", view.profile);
  jantaku.text("question", view.question ? `${view.question.en} (${view.question.ja})` : "none");
  // The player list names seats as the rest of the console does (this hand's wind and the
  // player's name); each option's value stays the seat the API means, so a correction acts on
  // the player the referee picked by name, whatever the wind is this hand.
  const choice = document.getElementById("correct-seat");
  const labels = view.seats.map((seat) => seat.label.en);
  // Rebuilt only when a label changes (a new hand): an open picker on a phone stays open.
  if ([...choice.options].map((option) => option.textContent).join("\n") !== labels.join("\n")) {
    const picked = choice.value;
    choice.replaceChildren(...view.seats.map((seat) => {
      const option = document.createElement("option");
      option.value = String(seat.seat);
      option.textContent = seat.label.en;
      return option;
    }));
    choice.value = picked;
  }
  document.getElementById("seats").replaceChildren(...view.seats.map((seat) => {
    const row = document.createElement("div");
    row.className = "seat";
    row.dataset.seat = String(seat.seat);
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = `${seat.label.en} ${jantaku.score(seat.score)}`;
    const pond = jantaku.pond(seat);
    // Tapping a pond tile picks it for a correction: no counting discards by hand.
    for (const image of pond.querySelectorAll("img.tile")) {
      image.onclick = () => {
        choice.value = String(seat.seat);
        document.getElementById("correct-number").value = String(Number(image.dataset.index) + 1);
        document.getElementById("correct-tile").focus();
      };
    }
    row.append(label, pond);
    return row;
  }));
}

async function start() {
  if (!(await openConsoleSession())) {
    return;
  }
  document.getElementById("confirm").onclick = () => act("confirm");
  document.getElementById("undo").onclick = () => act("undo");
  document.getElementById("correct").onsubmit = (event) => {
    event.preventDefault();
    act("correct-tile", {
      seat: Number(document.getElementById("correct-seat").value),
      index: Number(document.getElementById("correct-number").value) - 1,  // the API counts from 0
      tile: document.getElementById("correct-tile").value,
    });
  };
  const profiles = await (await fetch("/api/profiles")).json();
  const choice = document.getElementById("profile-choice");
  for (const name of profiles.profiles) {
    const option = document.createElement("option");
    option.textContent = name;
    option.selected = name === profiles.current;
    choice.appendChild(option);
  }
  document.getElementById("profile-form").onsubmit = async (event) => {
    event.preventDefault();
    await act("profile", { name: choice.value });
    // Refused (a hand in play): the list shows the profile in use again, not the one refused.
    choice.value = (await (await fetch("/api/profiles")).json()).current;
  };
  jantaku.follow(draw);
}

start();
