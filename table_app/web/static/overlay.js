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
  line.querySelector(".name").textContent = seat.name || `seat ${seat.seat}`;
  line.querySelector(".score").textContent = jantaku.score(seat.score);
  box.append(line, jantaku.pond(seat), jantaku.melds(seat));
  return box;
}

function draw(view) {
  const round = jantaku.roundText(view);
  jantaku.text("round-ja", round.ja);
  jantaku.text("round-en", round.en);
  jantaku.text("honba", String(view.honba));
  jantaku.text("sticks", String(view.riichi_sticks));
  jantaku.text("wall", view.live_wall === null ? "–" : String(view.live_wall));
  jantaku.tiles("dora", view.dora_indicators);
  document.getElementById("seats").replaceChildren(...view.seats.map(seatBox));
  jantaku.text("announce-ja", view.announcement ? view.announcement.ja : "");
  jantaku.text("announce-en", view.announcement ? view.announcement.en : "");
  document.getElementById("announcement").classList.toggle("empty", !view.announcement);
}

jantaku.follow(draw);
