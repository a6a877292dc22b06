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

  // A card is a face id, or {face, down, sideways, empty, mark} (Clash's Capture; a mark such as "pierced"): a
  // face-down card shows its back, an empty place its outline, a marked card its word. Drawn from the current
  // game's deck (/cards/<deck>/<face>.svg).
  function card(entry) {
    const deck = (current && current.game) || "";
    const { face, down, sideways, empty, mark } = typeof entry === "object" && entry !== null ? entry : { face: entry };
    const turned = sideways ? " sideways" : "";
    if (empty) return el("span", null, { class: "card empty", role: "img", "aria-label": "an empty place" });
    if (down || !face) return el("span", null, { class: `card back${turned}`, role: "img", "aria-label": "a card face down" });
    const drawn = el("img", null, {
      src: `/cards/${encodeURIComponent(deck)}/${encodeURIComponent(face)}.svg`, alt: face, class: `card${turned}`, width: "63", height: "88",
    });
    if (!mark) return drawn;
    drawn.alt = `${face} (${mark})`;
    const marked = el("span", null, { class: `card marked${turned}`, "data-mark": mark });
    marked.append(drawn);
    return marked;
  }

  // A cell naming cards (row.faces beside row.cells, docs/api.md) shows them as cards; its words stay for screen
  // readers and as the tooltip.
  function scoreCell(cell, faces) {
    if (!Array.isArray(faces) || !faces.length) return el("td", cell, typeof cell === "number" ? { class: "num" } : {});
    const td = el("td", null, { class: "faces", title: String(cell) });
    const drawn = el("span", null, { class: "cards", "aria-hidden": "true" });
    drawn.append(...faces.map(card));
    td.append(drawn, el("span", cell, { class: "sr-only" }));
    return td;
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
      row.cells.forEach((cell, i) => tr.append(scoreCell(cell, (row.faces || [])[i])));
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

  // Healthy only while it is also fresh: a link whose last frame is old, or a pad at fault, is not green.
  const STALE_S = 30;
  function trouble(info) {
    if (typeof info.last_frame_age_s === "number" && info.last_frame_age_s > STALE_S) {
      const age = info.last_frame_age_s;
      return `Nothing heard for ${age >= 120 ? `${Math.round(age / 60)} minutes` : `${Math.round(age)} s`}.`;
    }
    if (info.pad_faults > 0) return `${info.pad_faults} ${info.pad_faults === 1 ? "pad is" : "pads are"} not answering.`;
    const sight = info.light && Array.isArray(info.light.problems) ? info.light.problems : [];
    if (sight.length) return `The camera cannot see well enough to name cards. ${sight.join(". ")}.`;
    return "";
  }

  // The camera's light (see companion/vision/light.py) in words, not as a JSON blob.
  function shownValue(key, value) {
    if (key === "light" && value && typeof value === "object") {
      return `${value.level} of 255, colour cast ${value.cast}x, edges ${value.edge_px} px`;
    }
    return detail(value);
  }

  function deviceItem(name, health) {
    const info = health && typeof health === "object" ? health : { status: health };
    const okKey = OK_KEYS.find((k) => typeof info[k] === "boolean");
    const problem = trouble(info);
    const ok = okKey ? info[okKey] && !problem : problem ? false : null;
    const li = el("li", null, ok === null ? {} : { "data-ok": String(ok) });
    li.append(el("strong", name), document.createTextNode(`: ${info.status || (ok === false ? "fault" : ok ? "ok" : "")}`));
    const messageKey = MESSAGE_KEYS.find((k) => info[k]);
    if (messageKey) li.append(el("div", info[messageKey], { class: ok === false && !problem ? "fault" : "meta" }));
    if (problem) li.append(el("div", problem, { class: "fault" }));
    const shown = ["status", okKey, messageKey, "checks"];
    const details = Object.entries(info).filter(([k, v]) => !shown.includes(k) && v !== null && v !== undefined);
    if (details.length) li.append(el("div", details.map(([k, v]) => `${k} ${shownValue(k, v)}`).join(" · "), { class: "meta" }));
    if (Array.isArray(info.checks) && info.checks.length) li.append(checkList(info.checks));
    return li;
  }

  // The doctor's checks on the running table: each with what was seen and, for a problem, its fix.
  function checkList(checks) {
    const list = el("ul", null, { class: "checks" });
    for (const check of checks) {
      const item = el("li", null, { "data-ok": String(check.ok), "data-level": check.level || "" });
      item.append(el("strong", check.name), document.createTextNode(`: ${check.detail}`));
      if (check.fix) item.append(el("div", `fix: ${check.fix}`, { class: check.ok ? "meta" : "fault" }));
      list.append(item);
    }
    return list;
  }

  // A pad's pile in words a player reads across the table.
  function pileWords(pad) {
    const piggies = `${pad.count} ${pad.count === 1 ? "piggy" : "piggies"}`;
    const words = {
      empty: "empty", building: `${piggies}, stacking…`, stable: `${piggies}, steady`, touched: "hand on the pile",
      toppled: "toppled", fault: "pad not answering — referee decides",
    };
    return words[pad.state] || "waiting for the pad";
  }

  // The pad's latest counts (and weights, where the pad sends them) as a sparkline, drawn in the page.
  const SVG = "http://www.w3.org/2000/svg";
  function sparkline(trail, key, most) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 100 24");
    svg.setAttribute("class", `spark ${key}`);
    svg.setAttribute("aria-hidden", "true");
    const values = trail.map((p) => p[key]).filter((v) => typeof v === "number");
    if (values.length > 1) {
      const top = Math.max(most, ...values) || 1;
      const line = document.createElementNS(SVG, "polyline");
      line.setAttribute("points", values.map((v, i) => `${(i * 100) / (values.length - 1)},${22 - (20 * v) / top}`).join(" "));
      svg.append(line);
    }
    return svg;
  }

  function padItem(pad, piggies) {
    const li = el("li", null, { "data-state": pad.state || "none" });
    li.append(el("strong", pad.name), el("span", pileWords(pad), { class: "pile" }));
    const trail = pad.trail || [];
    li.append(sparkline(trail, "count", piggies));
    if (trail.some((p) => typeof p.grams === "number")) {
      const grams = trail.filter((p) => typeof p.grams === "number").pop().grams;
      li.append(sparkline(trail, "grams", 0), el("span", `${grams} g`, { class: "meta" }));
    }
    return li;
  }

  function verdictWords(verdict, players) {
    if (verdict.referee_needed) return `The referee decides: ${verdict.reason}`;
    if (verdict.winner === null || verdict.winner === undefined) return `No winner: ${verdict.reason}`;
    return `${players[verdict.winner] || "A player"} wins: ${verdict.reason}`;
  }

  function renderMatch(match, players) {
    const race = match && match.race;
    const verdict = match && match.last_verdict;
    $("match-panel").hidden = !race && !verdict;
    if (!match) return;
    const fault = race && race.pads.some((p) => p.state === "fault");
    const waiting = fault || (!race && verdict && verdict.referee_needed);
    $("match-title").textContent = waiting ? "Waiting for the referee" : race ? "Race!" : "Last match";
    $("match-panel").dataset.waiting = String(Boolean(waiting));
    $("match-call").textContent = race
      ? `${race.racers.join(" vs ")}: ${race.piggies} piggies${race.style ? `, ${race.style}` : ""}!`
      : "";
    fill($("match-pads"), race ? race.pads.map((p) => padItem(p, race.piggies)) : []);
    const hold = race && race.holding;
    $("match-hold").textContent = hold ? `${hold.name} shouted PIGZUP! Hold… ${hold.remaining_s.toFixed(1)} s` : "";
    $("match-bar").hidden = !hold;
    if (hold) $("match-bar").style.setProperty("--left", String(Math.max(0, Math.min(1, hold.remaining_s / (hold.hold_s || 1.5)))));
    $("match-verdict").textContent = verdict && !race ? verdictWords(verdict, players || []) : "";
    // The verdict's race as a picture, linked as soon as its trace is on the card (the history links the same).
    const traced = !race && verdict && match.traced;
    $("match-picture").hidden = !traced;
    if (traced) $("match-picture").querySelector("a").href = `/history/${traced.game_id}/race/${traced.match}.png`;
    fill($("match-notices"), (match.notices || []).slice(-3).reverse().map((n) => el("li", n)));
    // The race does not go on while a pad is silent: the page's own heading says who the table waits for.
    if (waiting) $("prompt").textContent = "The table waits for the referee to decide the match.";
  }

  // A chart (drawn on the Pi) where the game has one; asked for again only when the scores or stats change.
  let chartKey = "";
  function renderChart(snap) {
    const charted = ($("chart").dataset.games || "").split(" ");
    const show = snap.status !== "idle" && charted.includes(snap.game);
    $("chart").hidden = !show;
    if (!show) return;
    const rows = ((snap.scoreboard || {}).rows || []).map((r) => r.cells[0]);
    const key = `${snap.game_id}:${JSON.stringify(rows)}:${JSON.stringify(snap.stats || [])}`;
    if (key === chartKey) return;
    chartKey = key;
    $("chart-img").src = `/charts/${snap.game_id}.svg?seq=${snap.seq}`;
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
    // In words: "median_reaction_ms" is "Reaction" and its 840 is "0.84 s".
    const label = (k) => {
      const text = k.replace(/^median_/, "").replace(/_ms$/, "").replace(/_/g, " ");
      return text.charAt(0).toUpperCase() + text.slice(1);
    };
    const value = (k, v) => (v === null ? "–" : k.endsWith("_ms") ? `${(v / 1000).toFixed(2)} s` : v);
    fill($("stats").tHead.rows[0], [el("th", "Player", { scope: "col" }), ...keys.map((k) => el("th", label(k), { scope: "col", class: "num" }))]);
    fill($("stats").tBodies[0], rows.map((r) => {
      const tr = el("tr");
      tr.append(el("th", r.name, { scope: "row" }));
      for (const k of keys) tr.append(el("td", value(k, r[k]), { class: "num" }));
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
    renderMatch(snap.live && snap.live.table && snap.live.table.match, snap.players);
    renderChart(snap);
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
