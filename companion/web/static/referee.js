// Referee controls: unlock with the PIN, then forms generated from the game catalogue and the current game's
// action types. Every POST carries the CSRF token; every answer (accepted or refused) is shown in words.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let csrf = "";
  let catalogue = [];
  let actionsKey = "";

  function say(text, kind) {
    const box = $("referee-message");
    box.textContent = text;
    box.dataset.kind = kind || "ok";
  }

  async function post(path, body) {
    const response = await fetch(`/api/referee/${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body || {}),
    });
    const data = await response.json().catch(() => ({ message: `The server answered ${response.status}.` }));
    if (data.csrf_token) csrf = data.csrf_token;
    if (data.state) window.tableside.render(data.state);
    if (response.status === 401 && data.error === "locked") showLocked(true);
    if (!response.ok) throw new Error(data.message || `Refused (${response.status}).`);
    return data;
  }

  function showLocked(locked) {
    $("unlock-form").hidden = !locked;
    $("controls").hidden = locked;
    if (locked) $("pin").focus();
  }

  function option(value, text) {
    const node = document.createElement("option");
    node.value = value;
    node.textContent = text;
    return node;
  }

  // --- starting a game -------------------------------------------------------------------------------------
  function selectedGame() {
    return catalogue.find((g) => g.name === $("start-game").value);
  }

  function showVariants() {
    const game = selectedGame();
    if (!game) return;
    $("start-variant").replaceChildren(...Object.keys(game.variants).map((v) => option(v, v)));
    showVariantDoc();
    const seats = $("start-players").children.length;
    for (let i = seats; i < game.min_players; i++) addPlayer();
  }

  function showVariantDoc() {
    const game = selectedGame();
    $("variant-doc").textContent = game ? `${game.variants[$("start-variant").value] || ""} (${game.min_players}–${game.max_players} players)` : "";
  }

  function addPlayer() {
    const list = $("start-players");
    const game = selectedGame();
    if (game && list.children.length >= game.max_players) return say(`${game.title} is for at most ${game.max_players} players.`, "error");
    const seat = list.children.length;
    const li = document.createElement("li");
    const label = document.createElement("label");
    label.textContent = `Seat ${seat}`;
    label.htmlFor = `player-${seat}`;
    const input = document.createElement("input");
    input.id = `player-${seat}`;
    input.required = true;
    input.autocomplete = "off";
    // Where the player sits at the table (the mat's seat zones); "usual" lets the mat's plan decide.
    const zone = document.createElement("select");
    zone.className = "zone";
    zone.setAttribute("aria-label", `Place at the table, number ${seat + 1} in turn order`);
    zone.append(option("", "usual place"), ...[1, 2, 3, 4, 5, 6].map((n) => option(`seat-${n}`, `at seat ${n} of the mat`)));
    li.append(label, input, zone);
    list.append(li);
  }

  async function startGame(event) {
    event.preventDefault();
    let options;
    try {
      options = JSON.parse($("start-options").value || "{}");
    } catch (err) {
      return say("The game options are not valid JSON.", "error");
    }
    const players = [...$("start-players").querySelectorAll("input")].map((i) => i.value.trim());
    const zones = [...$("start-players").querySelectorAll("select.zone")].map((z) => z.value);
    const seats = zones.every((z) => z) ? zones : [];
    if (!seats.length && zones.some((z) => z)) return say("Choose a place for every player, or leave them all on their usual place.", "error");
    try {
      const data = await post("start", {
        game: $("start-game").value, variant: $("start-variant").value, players, options,
        full_information: $("start-full").checked, seats,
      });
      say(`Game ${data.game_id} started.`);
    } catch (err) {
      say(err.message, "error");
    }
  }

  // --- entering and correcting actions --------------------------------------------------------------------
  function currentActions() {
    const snap = window.tableside.current();
    return (snap && snap.status === "playing" && snap.actions) || [];
  }

  function activeSeat() {
    const rows = ((window.tableside.current() || {}).scoreboard || {}).rows || [];
    const active = rows.find((row) => row.active);
    return active ? active.seat : 0;
  }

  function fieldInput(name, type, players) {
    const id = `field-${name}`;
    const wrap = document.createElement("div");
    wrap.className = "stack";
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = name;
    const optional = type.endsWith("?");
    const base = type.replace("?", "");
    let input;
    if (base === "seat" && players.length) {
      input = document.createElement("select");
      if (optional) input.append(option("", "nobody"));
      players.forEach((p, seat) => input.append(option(seat, `${p} (seat ${seat})`)));
      if (name === "player") input.value = String(activeSeat());
    } else {
      input = document.createElement("input");
      if (base === "bool") input.type = "checkbox";
      else if (base === "int" || base === "float" || base === "seat") {
        input.type = "number";
        input.step = base === "float" ? "any" : "1";
        input.inputMode = base === "float" ? "decimal" : "numeric";
      } else if (base.startsWith("list[")) label.textContent = `${name} (separate with commas)`;
    }
    input.id = id;
    input.name = name;
    input.dataset.type = type;
    if (!optional && base !== "bool" && !base.startsWith("list[")) input.required = true;
    wrap.append(label, input);
    return wrap;
  }

  function parseValue(input) {
    const type = input.dataset.type;
    const base = type.replace("?", "");
    if (base === "bool") return input.checked;
    const raw = input.value.trim();
    if (raw === "" && type.endsWith("?")) return null;
    if (base.startsWith("list[")) {
      const item = base.slice(5, -1);
      return raw === "" ? [] : raw.split(",").map((s) => (item === "int" ? Number(s.trim()) : s.trim()));
    }
    return ["int", "float", "seat"].includes(base) ? Number(raw) : raw;
  }

  function showActionFields() {
    const schema = currentActions().find((a) => a.type === $("action-type").value);
    const players = (window.tableside.current() || {}).players || [];
    $("action-doc").textContent = schema ? schema.doc : "";
    $("action-fields").replaceChildren(...(schema ? Object.entries(schema.fields).map(([n, t]) => fieldInput(n, t, players)) : []));
  }

  function refreshActionTypes() {
    const actions = currentActions();
    const snap = window.tableside.current() || {};
    $("action-prompt").textContent = (snap.scoreboard && snap.scoreboard.prompt) || "";
    const key = `${snap.game_id}:${actions.map((a) => a.type).join(",")}`;
    if (key === actionsKey) return;  // keep what the referee is typing unless the game changed
    actionsKey = key;
    $("action-form").hidden = actions.length === 0;
    $("action-type").replaceChildren(...actions.map((a) => option(a.type, a.type)));
    showActionFields();
  }

  function actionFromForm() {
    const action = { type: $("action-type").value };
    for (const input of $("action-fields").querySelectorAll("input, select")) action[input.name] = parseValue(input);
    return action;
  }

  async function submitAction(event) {
    event.preventDefault();
    const mode = event.submitter && event.submitter.value === "correct" ? "correct" : "action";
    try {
      await post(mode, actionFromForm());
      showActionFields();  // a fresh form for the next move, with the next player chosen
      say(mode === "correct" ? "The last action was replaced." : "Action entered.");
    } catch (err) {
      say(err.message, "error");
    }
  }

  async function loadLast() {
    const snap = window.tableside.current();
    if (!snap || !snap.game_id) return say("No game is being played.", "error");
    const response = await fetch(`/api/history/${snap.game_id}`, { cache: "no-store" });
    const log = await response.json();
    const last = log.events.filter((e) => e.kind === "action" && !e.revoked).pop();
    if (!last) return say("There is no action to correct yet.", "error");
    $("action-type").value = last.payload.type;
    showActionFields();
    for (const [name, value] of Object.entries(last.payload)) {
      const input = $(`field-${name}`);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = Boolean(value);
      else input.value = Array.isArray(value) ? value.join(", ") : value === null ? "" : String(value);
    }
    say(`Loaded “${last.text}”. Change it, then choose “Replace the last action with this”.`);
  }

  // --- wiring ---------------------------------------------------------------------------------------------
  async function simple(path, body, done) {
    try {
      await post(path, body);
      say(done);
    } catch (err) {
      say(err.message, "error");
    }
  }

  async function init() {
    const status = await (await fetch("/api/referee", { cache: "no-store" })).json();
    csrf = status.csrf_token;
    if (!status.pin_set) {
      say("Referee controls are off: no PIN is set. Run `companion hash-pin` and put the result in the [web] pin_hash setting.", "error");
      return;
    }
    catalogue = await (await fetch("/api/games")).json();
    $("start-game").replaceChildren(...catalogue.map((g) => option(g.name, g.title)));
    showVariants();
    refreshActionTypes();
    showLocked(!status.unlocked);
  }

  $("unlock-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await post("unlock", { pin: $("pin").value });
      $("pin").value = "";
      say("Unlocked.");
      showLocked(false);
    } catch (err) {
      say(err.message, "error");
    }
  });
  $("lock-button").addEventListener("click", async () => {
    await simple("lock", {}, "Locked.");
    showLocked(true);
  });
  $("start-game").addEventListener("change", showVariants);
  $("start-variant").addEventListener("change", showVariantDoc);
  $("add-player").addEventListener("click", addPlayer);
  $("remove-player").addEventListener("click", () => {
    const list = $("start-players");
    const game = selectedGame();
    if (list.lastElementChild && (!game || list.children.length > game.min_players)) list.lastElementChild.remove();
  });
  $("start-form").addEventListener("submit", startGame);
  $("action-type").addEventListener("change", showActionFields);
  $("action-form").addEventListener("submit", submitAction);
  $("load-last").addEventListener("click", loadLast);
  $("undo-button").addEventListener("click", () => simple("undo", {}, "The last action was undone."));
  $("end-form").addEventListener("submit", (event) => {
    event.preventDefault();
    simple("end", { reason: $("end-reason").value }, "The game was ended.");
  });
  document.addEventListener("tableside:snapshot", refreshActionTypes);
  init().catch((err) => say(`Could not load the referee controls: ${err.message}`, "error"));
})();
