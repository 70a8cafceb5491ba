// Shared by the display, the overlay and the console: the live view over WebSocket, and tiles.
"use strict";

const jantaku = (() => {
  // Connect to /ws and call onView(view) with every view newer than the last one drawn.
  // Reconnects after a drop; views can arrive out of order on reconnect, so the sequence decides.
  function follow(onView, onStatus) {
    let lastSequence = -1;
    let delay = 500;
    function connect() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const socket = new WebSocket(`${scheme}://${location.host}/ws`);
      socket.onopen = () => { delay = 500; if (onStatus) onStatus(true); };
      socket.onmessage = (message) => {
        const data = JSON.parse(message.data);
        if (data.type !== "view") return;
        // A restarted server starts counting again: a sequence far below ours means a new feed.
        if (data.view.sequence <= lastSequence && data.view.sequence !== 0) return;
        lastSequence = data.view.sequence;
        onView(data.view);
        document.body.dataset.sequence = String(lastSequence);
        // For whoever watches the page (tests, the latency bench): this view is on screen now.
        document.dispatchEvent(new CustomEvent("jantaku:drawn", { detail: lastSequence }));
      };
      socket.onclose = () => {
        if (onStatus) onStatus(false);
        lastSequence = -1;
        setTimeout(connect, delay);
        delay = Math.min(delay * 2, 5000);
      };
    }
    connect();
  }

  function tile(code, classes) {
    const image = document.createElement("img");
    image.className = "tile" + (classes ? " " + classes : "");
    image.src = `/static/tiles/${code}.png`;
    image.alt = code;
    image.dataset.tile = code;
    return image;
  }

  function pond(view) {
    // Rows of six, as players lay their discards out.
    const box = document.createElement("div");
    box.className = "pond";
    let row = null;
    view.pond.forEach((p, index) => {
      if (index % 6 === 0) {
        row = document.createElement("div");
        row.className = "pond-row";
        box.appendChild(row);
      }
      const classes = [p.riichi ? "sideways riichi" : "", p.called ? "called" : "", p.tsumogiri ? "tsumogiri" : ""];
      const image = tile(p.tile, classes.filter(Boolean).join(" "));
      image.dataset.index = String(index);
      row.appendChild(image);
    });
    return box;
  }

  function melds(view) {
    const box = document.createElement("div");
    box.className = "melds";
    for (const meld of view.melds) {
      const group = document.createElement("span");
      group.className = `meld ${meld.kind}`;
      group.dataset.kind = meld.kind;
      if (meld.called_from !== null) group.dataset.from = String(meld.called_from);
      // The called tile lies sideways on the side it came from: left, middle (across), right.
      const tiles = [...meld.tiles];
      let sidewaysAt = -1;
      if (meld.called !== null && tiles.includes(meld.called)) {
        tiles.splice(tiles.indexOf(meld.called), 1);
        sidewaysAt = meld.relation === "left" ? 0 : meld.relation === "across" ? 1 : tiles.length;
        tiles.splice(sidewaysAt, 0, meld.called);
      }
      tiles.forEach((code, index) => {
        const closedKanEdge = meld.kind === "ankan" && (index === 0 || index === 3);
        const image = tile(closedKanEdge ? "back" : code, index === sidewaysAt ? "sideways called-in" : "");
        group.appendChild(image);
      });
      box.appendChild(group);
    }
    return box;
  }

  function openHand(view) {
    const box = document.createElement("div");
    box.className = "open-hand";
    if (view.open_hand) for (const code of view.open_hand) box.appendChild(tile(code));
    return box;
  }

  function text(id, value) {
    const element = document.getElementById(id);
    if (element) element.textContent = value;
  }

  function tiles(id, codes) {
    const element = document.getElementById(id);
    if (!element) return;
    element.replaceChildren(...codes.map((code) => tile(code)));
  }

  function roundText(view) {
    if (view.finished) return { ja: "対局終了", en: "Game over" };
    if (!view.round) return { ja: "", en: "" };
    return { ja: view.round.ja, en: view.round.en };
  }

  function score(value) { return value.toLocaleString("en-US"); }

  // What every page shows the same way: round, honba, sticks, wall, dora, the last
  // announcement. A page without one of these elements simply skips it (see text/tiles).
  function header(view) {
    const round = roundText(view);
    text("round-ja", round.ja);
    text("round-en", round.en);
    text("honba", String(view.honba));
    text("sticks", String(view.riichi_sticks));
    text("wall", view.live_wall === null ? "–" : String(view.live_wall));
    tiles("dora", view.dora_indicators);
    text("announce-ja", view.announcement ? view.announcement.ja : "");
    text("announce-en", view.announcement ? view.announcement.en : "");
  }

  return { follow, tile, pond, melds, openHand, text, tiles, roundText, score, header };
})();
