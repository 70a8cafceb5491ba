// The hall page: every table's card, kept current over /ws/hall (a card per change; the whole
// hall on connecting). For whoever watches the page (tests, the latency bench) each card drawn
// is noted in window.jantakuHallDrawn as [table, game, seq, Date.now()] and announced with a
// "jantaku:hall-drawn" event.
"use strict";

window.jantakuHallDrawn = [];
const cards = new Map();
let featured = null;

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function drawCard(card) {
  let box = document.getElementById(`table-${card.table}`);
  if (!box) {
    box = element("article", "card");
    box.id = `table-${card.table}`;
    box.dataset.table = card.table;
    const container = document.getElementById("tables");
    const after = [...container.children].find((node) => node.dataset.table > card.table);
    container.insertBefore(box, after || null);
  }
  cards.set(card.table, card);
  const online = card.online === true ? "online" : card.online === false ? "offline" : "unknown";
  box.className = `card ${online}` + (card.table === featured ? " featured" : "");
  box.dataset.online = online;
  const head = element("div", "head");
  head.append(element("span", "name", card.table), element("span", `state ${online}`, online));
  const parts = [head];
  if (card.game !== null) {
    box.dataset.game = String(card.game);
    box.dataset.seq = String(card.seq);
    const round = element("div", "round");
    round.append(element("span", "ja", card.round.ja), " ", element("span", "en", card.round.en));
    const counters = element("div", "counters", `honba ${card.honba} · sticks ${card.riichi_sticks} · hands ${card.hands}`);
    parts.push(round, counters);
    card.names.forEach((name, seat) => {
      const row = element("div", "seat" + (card.dealer === seat ? " dealer" : "") + (card.riichi[seat] ? " in-riichi" : ""));
      row.dataset.seat = String(seat);
      row.append(
        element("span", "player", name || `seat ${seat + 1}`),
        element("span", "riichi", "リーチ"),
        element("span", "score", card.scores[seat].toLocaleString("en-US")),
      );
      parts.push(row);
    });
    parts.push(element("div", "last", card.last_act));
    parts.push(element("div", "where", `game ${card.game} · #${card.seq}` + (card.fault ? ` · ${card.fault}` : "")));
  }
  box.replaceChildren(...parts);
  window.jantakuHallDrawn.push([card.table, card.game, card.seq, Date.now()]);
  if (window.jantakuHallDrawn.length > 500000) window.jantakuHallDrawn.splice(0, 100000);
  document.dispatchEvent(new CustomEvent("jantaku:hall-drawn", { detail: card.table }));
}

function drawCounts() {
  const all = [...cards.values()];
  document.getElementById("table-count").textContent = String(all.length);
  document.getElementById("online-count").textContent = String(all.filter((c) => c.online === true).length);
}

function drawStandings(standings) {
  document.getElementById("standing-games").textContent = String(standings.games);
  document.getElementById("standings").replaceChildren(...standings.players.map((player, index) => {
    const row = element("tr");
    row.dataset.player = player.name;
    row.append(
      element("td", "", String(index + 1)),
      element("td", "name", player.name),
      element("td", "points", (player.points >= 0 ? "+" : "") + player.points.toFixed(1)),
      element("td", "", String(player.games)),
      element("td", "", player.ranks.join(" ")),
    );
    return row;
  }));
}

function setFeatured(name) {
  if (name === featured) return;
  featured = name;
  for (const box of document.querySelectorAll(".card")) box.classList.toggle("featured", box.dataset.table === name);
}

function follow() {
  let delay = 500;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/hall`);
  const link = document.getElementById("link");
  socket.onopen = () => { delay = 500; link.textContent = "live"; };
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "hall") {
      document.getElementById("hall-name").textContent = data.hall;
      featured = data.featured;
      data.tables.forEach(drawCard);
      drawStandings(data.standings);
    } else if (data.type === "table") {
      featured = data.featured;
      drawCard(data.table);
      setFeatured(data.featured);
    } else if (data.type === "standings") {
      drawStandings(data.standings);
    }
    drawCounts();
  };
  socket.onclose = () => {
    link.textContent = "reconnecting…";
    setTimeout(follow, delay);
    delay = Math.min(delay * 2, 5000);
  };
}

follow();
