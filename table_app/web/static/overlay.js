// The broadcast overlay: a 1920x1080 transparent page for an OBS browser source.
"use strict";

function seatBox(seat) {
  const box = document.createElement("div");
  box.className = "seat" + (seat.dealer ? " dealer" : "") + (seat.on_turn ? " on-turn" : "");
  box.dataset.seat = String(seat.seat);
  box.dataset.riichi = seat.riichi;
  const line = document.createElement("div");
  line.className = "line";
  line.innerHTML = `<span class="wind"></span><span class="name"></span><span class="stick"></span><span class="score"></span>`;
  line.querySelector(".wind").textContent = seat.wind_ja || "";
  line.querySelector(".name").textContent = seat.label.person;
  line.querySelector(".score").textContent = jantaku.score(seat.score);
  box.append(line, jantaku.pond(seat), jantaku.melds(seat));
  return box;
}

function draw(view) {
  jantaku.header(view);
  document.getElementById("seats").replaceChildren(...view.seats.map(seatBox));
  document.getElementById("announcement").classList.toggle("empty", !view.announcement);
}

jantaku.follow(draw);
