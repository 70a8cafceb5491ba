// The table display: big scores, round, honba, sticks, dora, ponds, the last announcement.
"use strict";

function seatCard(seat, finalPoints) {
  const card = document.createElement("section");
  card.className = "seat" + (seat.dealer ? " dealer" : "") + (seat.on_turn ? " on-turn" : "");
  card.dataset.seat = String(seat.seat);
  card.dataset.riichi = seat.riichi;
  const head = document.createElement("div");
  head.className = "head";
  head.innerHTML = `<span class="wind"></span><span class="name"></span><span class="riichi-mark">リーチ</span>`;
  head.querySelector(".wind").textContent = seat.wind_ja || "";
  head.querySelector(".name").textContent = seat.label.person;
  const score = document.createElement("div");
  score.className = "score";
  score.textContent = jantaku.score(seat.score);
  card.append(head, score);
  if (finalPoints) {
    const points = document.createElement("div");
    const value = finalPoints[seat.seat];
    points.className = "final-points";
    points.textContent = `${value > 0 ? "+" : ""}${value.toFixed(1)} pt`;
    card.append(points);
  }
  if (seat.tray) {
    const tray = document.createElement("div");
    tray.className = "tray" + (seat.tray.difference ? " off" : "");
    tray.textContent = seat.tray.difference ? `tray ${jantaku.score(seat.tray.points)} (${seat.tray.difference > 0 ? "+" : ""}${seat.tray.difference})` : "tray ok";
    card.append(tray);
  }
  card.append(jantaku.pond(seat), jantaku.melds(seat), jantaku.openHand(seat));
  return card;
}

function draw(view) {
  jantaku.header(view);
  jantaku.text("link", view.link === "absent" ? "" : `link ${view.link}`);
  jantaku.text("camera", view.camera === "absent" ? "" : `camera ${view.camera}`);
  document.getElementById("seats").replaceChildren(...view.seats.map((seat) => seatCard(seat, view.final_points)));
  jantaku.text("question", view.question ? `審判確認 ${view.question.ja} · referee to confirm: ${view.question.en}` : "");
}

jantaku.follow(draw, (up) => jantaku.text("live", up ? "live" : "offline"));
