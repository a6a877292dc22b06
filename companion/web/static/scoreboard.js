// The live scoreboard: draws any game from its snapshot, keeps it current over Server-Sent Events, and falls
// back to polling /api/state when streaming is unavailable. Text goes in with textContent only, so player
// names can never inject markup.
"use strict";

(function () {
  const POLL_MS = 3000;
  const RETRY_STREAM_MS = 30000;
  const RECENT_SHOWN = 10;
  const $ = (id) => document.getElementById(id);
  let current = null;
  let stream = null;
  let pollTimer = null;

  function el(tag, text, attrs) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    return node;
  }

  function fill(parent, children) {
    parent.replaceChildren(...children);
  }

  function isNewer(snap) {
    return !current || snap.game_id !== current.game_id || snap.seq >= current.seq || snap.status !== current.status;
  }

  function renderScores(board) {
    const head = $("scores").tHead.rows[0];
    const cols = (board && board.columns) || [];
    const data = (board && board.rows) || [];
    const numeric = cols.map((_, i) => data.length > 0 && data.every((r) => typeof r.cells[i] === "number" || r.cells[i] === ""));
    fill(head, [el("th", "Player", { scope: "col" }), ...cols.map((c, i) => el("th", c, numeric[i] ? { scope: "col", class: "num" } : { scope: "col" }))]);
    const rows = data.map((row) => {
      const tr = el("tr", null, row.active ? { class: "active" } : {});
      tr.append(el("th", row.name, { scope: "row" }));
      for (const cell of row.cells) tr.append(el("td", cell, typeof cell === "number" ? { class: "num" } : {}));
      return tr;
    });
    fill($("scores").tBodies[0], rows);
  }

  function renderOutcome(outcome) {
    const box = $("outcome");
    box.hidden = !outcome;
    if (!outcome) return;
    const winners = outcome.winners || [];
    const parts = [el("strong", winners.length ? `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}` : "No winner")];
    if (outcome.reason) parts.push(el("p", outcome.reason, { class: "meta" }));
    if (outcome.tie_break) parts.push(el("p", `Tie-break: ${outcome.tie_break}`));
    fill(box, parts);
  }

  // Any health object is shown; these keys (see docs/api.md) get pride of place.
  const OK_KEYS = ["ok", "connected"];
  const MESSAGE_KEYS = ["message", "fault", "error", "last_error"];

  function detail(value) {
    const text = value !== null && typeof value === "object" ? JSON.stringify(value) : String(value);
    return text.length > 60 ? `${text.slice(0, 57)}…` : text;
  }

  function deviceItem(name, health) {
    const info = health && typeof health === "object" ? health : { status: health };
    const okKey = OK_KEYS.find((k) => typeof info[k] === "boolean");
    const ok = okKey ? info[okKey] : null;
    const li = el("li", null, ok === null ? {} : { "data-ok": String(ok) });
    li.append(el("strong", name), document.createTextNode(`: ${info.status || (ok === false ? "fault" : ok ? "ok" : "")}`));
    const messageKey = MESSAGE_KEYS.find((k) => info[k]);
    if (messageKey) li.append(el("div", info[messageKey], { class: ok === false ? "fault" : "meta" }));
    const shown = ["status", okKey, messageKey];
    const details = Object.entries(info).filter(([k, v]) => !shown.includes(k) && v !== null && v !== undefined);
    if (details.length) li.append(el("div", details.map(([k, v]) => `${k} ${detail(v)}`).join(" · "), { class: "meta" }));
    return li;
  }

  function renderMatch(match) {
    const race = match && match.race;
    const verdict = match && match.last_verdict;
    $("match-panel").hidden = !race && !verdict;
    if (!match) return;
    $("match-call").textContent = race
      ? `${race.racers.join(" vs ")}: ${race.piggies} piggies${race.style ? `, ${race.style}` : ""}!`
      : "";
    fill($("match-pads"), race ? race.pads.map((p) => el("li", `${p.name}: ${p.pile}`)) : []);
    const hold = race && race.holding;
    $("match-hold").textContent = hold ? `${hold.name} shouted PIGZUP! Hold… ${hold.remaining_s.toFixed(1)} s` : "";
    $("match-verdict").textContent = verdict && !race ? verdict.reason : "";
    fill($("match-notices"), (match.notices || []).slice(-3).reverse().map((n) => el("li", n)));
  }

  // The table's questions: big buttons anyone at the table can press (a player's own choice needs no PIN; the
  // server refuses a referee question without it, and the message shows next to the buttons).
  let promptToken = "";

  async function answerPrompt(prompt, option, note) {
    note.textContent = "Sending…";
    try {
      if (!promptToken) promptToken = (await (await fetch("/api/prompts", { cache: "no-store" })).json()).csrf_token;
      const response = await fetch(`/api/prompts/${prompt.id}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": promptToken },
        body: JSON.stringify({ option }),
      });
      const data = await response.json();
      note.textContent = response.ok ? "Recorded." : data.message || "Refused.";
      if (response.ok && data.state) render(data.state);
    } catch (err) {
      note.textContent = "The table did not answer: try again.";
    }
  }

  function promptBox(prompt, players) {
    const box = el("div", null, { class: "ask", "data-prompt": String(prompt.id) });
    const who = prompt.seat === null ? "The referee decides" : `${players[prompt.seat] || "A player"} decides`;
    box.append(el("p", prompt.question, { class: "question" }), el("p", who, { class: "meta" }));
    const note = el("p", "", { class: "meta", role: "status" });
    const buttons = el("div", null, { class: "answers" });
    prompt.options.forEach((option, index) => {
      const button = el("button", option.label, { type: "button", class: "answer" });
      button.addEventListener("click", () => answerPrompt(prompt, index, note));
      buttons.append(button);
    });
    box.append(buttons, note);
    return box;
  }

  function renderTable(table, prompts, players) {
    const objection = table && table.objection;
    const said = (table && table.said) || [];
    const centre = (table && table.centre) || [];
    const piles = (table && table.piles) || [];
    const asks = prompts || [];
    $("table-panel").hidden = !objection && !asks.length && !said.length && !centre.length && !piles.length;
    $("table-objection").textContent = objection ? objection.message : "";
    fill($("prompts"), asks.map((p) => promptBox(p, players || [])));
    const deck = (current && current.game) || "";
    // A pile's card is a face, or {face, down, sideways, empty}: Capture's hidden, rested and empty places.
    const card = (entry) => {
      const c = typeof entry === "string" ? { face: entry } : entry;
      if (!c.face) return el("span", null, { class: c.empty ? "card empty" : "card back", title: c.empty ? "empty place" : "face down" });
      return el("img", null, {
        src: `/cards/${encodeURIComponent(deck)}/${encodeURIComponent(c.face)}.svg`, alt: c.sideways ? `${c.face} (rested)` : c.face,
        class: c.sideways ? "card sideways" : "card", width: "63", height: "88",
      });
    };
    fill($("table-centre"), centre.length ? [el("span", "In the centre:", { class: "meta" }), ...centre.map(card)] : []);
    // Piles in front of the players (Crazy Corgi's Kennels, stacks, parties...): each as the camera sees it.
    fill($("table-piles"), piles.map((p) => {
      const pile = el("div", null, { class: "cards", "data-zone": p.zone || "" });
      pile.append(el("span", `${p.label}:`, { class: "meta" }), ...p.cards.map(card));
      return pile;
    }));
    fill($("table-said"), said.slice(-3).reverse().map((text) => el("li", text)));
  }

  // Per-player statistics a game provides (PigzUp!: races won and reaction times), shown as a table.
  function renderStats(stats) {
    const rows = stats || [];
    $("stats-panel").hidden = rows.length === 0;
    if (!rows.length) return;
    const keys = Object.keys(rows[0]).filter((k) => k !== "seat" && k !== "name");
    const label = (k) => k.replace(/_/g, " ").replace(/\bms\b/, "(ms)");
    fill($("stats").tHead.rows[0], [el("th", "Player", { scope: "col" }), ...keys.map((k) => el("th", label(k), { scope: "col", class: "num" }))]);
    fill($("stats").tBodies[0], rows.map((r) => {
      const tr = el("tr");
      tr.append(el("th", r.name, { scope: "row" }));
      for (const k of keys) tr.append(el("td", r[k] === null ? "–" : r[k], { class: "num" }));
      return tr;
    }));
  }

  function render(snap) {
    if (!isNewer(snap)) return;
    current = snap;
    const playing = snap.status !== "idle";
    $("game-title").textContent = playing ? snap.title || snap.game : "No game yet";
    $("game-meta").textContent = playing ? `${snap.variant} · game ${snap.game_id} · ${snap.status}` : "Waiting for the referee to start a game";
    const board = snap.scoreboard || {};
    $("phase").textContent = board.phase || "";
    $("prompt").textContent = board.prompt || "";
    renderScores(board);
    renderOutcome(snap.outcome);
    const warnings = snap.warnings || [];
    $("warnings-panel").hidden = warnings.length === 0;
    fill($("warnings"), warnings.map((w) => el("li", w.message)));
    const recent = (snap.recent || []).slice(-RECENT_SHOWN).reverse();
    $("game-log").hidden = !snap.game_id;
    $("game-log").href = `/history/${snap.game_id}`;
    fill($("recent"), recent.length ? recent.map((m) => el("li", `${m.text}${m.source ? ` (${m.source})` : ""}`, { value: m.seq })) : [el("li", "No moves yet")]);
    renderMatch(snap.live && snap.live.table && snap.live.table.match);
    renderTable(snap.live && snap.live.table, snap.prompts, snap.players);
    renderStats(snap.stats);
    const devices = Object.entries(snap.devices || {});
    fill($("devices"), devices.length ? devices.map(([name, health]) => deviceItem(name, health)) : [el("li", "No devices configured")]);
    document.dispatchEvent(new CustomEvent("tableside:snapshot", { detail: snap }));
  }

  function setConnection(state, text) {
    const node = $("connection");
    node.dataset.state = state;
    node.textContent = text;
  }

  async function poll() {
    try {
      const response = await fetch("/api/state", { cache: "no-store" });
      if (response.ok) render(await response.json());
    } catch (err) {
      setConnection("polling", "Offline: retrying");
    }
  }

  function startPolling() {
    if (pollTimer) return;
    setConnection("polling", `Updating every ${POLL_MS / 1000} s`);
    pollTimer = setInterval(poll, POLL_MS);
    poll();
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }

  function connect() {
    if (!window.EventSource) return startPolling();
    if (stream) stream.close();
    stream = new EventSource("/api/events");
    stream.addEventListener("snapshot", (event) => {
      stopPolling();
      setConnection("live", "Live");
      render(JSON.parse(event.data));
    });
    stream.onerror = () => {
      startPolling();
      if (stream.readyState === EventSource.CLOSED) {
        stream = null;  // refused (too many screens) or gone: poll, and try streaming again later
        setTimeout(connect, RETRY_STREAM_MS);
      }
    };
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    if (!stream || stream.readyState === EventSource.CLOSED) connect();
    poll();  // a phone waking up shows the table at once, before the stream catches up
  });

  window.tableside = { render, current: () => current, poll };
  render(JSON.parse($("initial-state").textContent));
  connect();
})();
