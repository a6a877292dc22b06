// Referee controls: unlock with the PIN, then forms generated from the game catalogue, the game's action types
// and what the rules allow now (/api/referee/choices). Cards are tapped, players picked by name, seats counted
// from 1; every answer (accepted or refused) is shown in words next to the button that was pressed.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let csrf = "";
  let catalogue = [];
  let actionsKey = "";
  let picks = null;  // the choices for the game in play (deck faces, legal cards, whose move)
  let overruling = null;  // {seq, text} while the form holds a replacement for an earlier move

  // Words for the action fields; any other field is shown with its name in words.
  const FIELD_WORDS = {
    player: "Who", card: "Card", cards: "Cards", tops: "Top cards", winner: "Winner", reason: "Why (a few words)",
    target: "Whom", leader: "Who leads next", to: "Given to", value: "Value", kennel: "Kennel", stack: "Stack",
    stacks: "From the stacks", effect: "Whose effect", replace: "In place of", keep: "Cards kept", slot: "Place",
    slots: "Places", low: "Low", foes: "Foes", rank: "Rank", column: "Column",
  };
  const NOBODY = { winner: "nobody: a void match", target: "nobody", card: "none" };
  // Numbered places in front of a player, counted from 1 from the left like the scoreboard's columns.
  const PLACES = { kennel: 3, stack: 4 };
  const HIDDEN = (name) => name.endsWith("_ms");  // timings come from the judge; a referee has none to type

  function words(name) {
    const text = name.replace(/[_-]/g, " ");
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // An action's description without its API notation: the first sentence, ``null`` as "none".
  function plain(doc) {
    const first = doc.split(/(?<=\.)\s/)[0];
    return first.replace(/``(None|null)``/g, "none").replace(/``([^`]*)``/g, "$1");
  }

  function say(text, kind, near) {
    const box = (near && near.closest(".stack, form") && near.closest(".stack, form").querySelector(":scope > .note")) || $("referee-message");
    box.textContent = text;
    box.dataset.kind = kind || "ok";
    if (box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
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
    if (!response.ok) {
      const error = new Error(data.message || `Refused (${response.status}).`);
      error.data = data;
      throw error;
    }
    return data;
  }

  function showLocked(locked) {
    $("unlock-form").hidden = !locked;
    $("controls").hidden = locked;
    if (locked) $("pin").focus();
    else refreshChoices();
  }

  function node(tag, attrs, text) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) element.setAttribute(key, value);
    if (text !== undefined) element.textContent = text;
    return element;
  }

  function option(value, text) {
    return node("option", { value: String(value) }, text);
  }

  function players() {
    return (window.tableside.current() || {}).players || [];
  }

  function seatOptions(list, unset) {
    return [...(unset ? [option("", unset)] : []), ...list.map((p, seat) => option(seat, `${p} (seat ${seat + 1})`))];
  }

  // --- starting a game -------------------------------------------------------------------------------------
  function selectedGame() {
    return catalogue.find((g) => g.name === $("start-game").value);
  }

  function showVariants() {
    const game = selectedGame();
    if (!game) return;
    $("start-variant").replaceChildren(...Object.keys(game.variants).map((v) => option(v, words(v))));
    const seats = $("start-players").children.length;
    for (let i = seats; i < game.min_players; i++) addPlayer();
    showVariantDoc();
  }

  function showVariantDoc() {
    const game = selectedGame();
    $("variant-doc").textContent = game ? `${game.variants[$("start-variant").value] || ""} (${game.min_players}–${game.max_players} players)` : "";
    showOptions();
  }

  function startNames() {
    return [...$("start-players").querySelectorAll("input")].map((i, seat) => i.value.trim() || `Seat ${seat + 1}`);
  }

  // Game options as fields, from the ruleset's own list: left alone, an option is not sent and the rules decide.
  function optionField(spec, names) {
    const id = `option-${spec.name}`;
    const wrap = node("div", { class: "stack", "data-option": spec.name, "data-kind": spec.kind });
    const label = node("label", { for: id }, spec.label);
    wrap.append(label);
    if (spec.kind === "seat") {
      const select = node("select", { id });
      select.append(...seatOptions(names, `As usual: ${spec.unset}`));
      wrap.append(select);
    } else if (spec.kind === "choice") {
      const select = node("select", { id });
      select.append(option("", `As usual: ${spec.unset}`), ...spec.choices.map((c) => option(c, words(c))));
      wrap.append(select);
    } else if (spec.kind === "choices") {
      label.removeAttribute("for");
      for (let i = 0; i < spec.count; i++) {
        const select = node("select", { id: i ? `${id}-${i}` : id, "aria-label": `${spec.label}, ${i + 1}` });
        select.append(option("", `As usual: ${spec.unset}`), ...spec.choices.map((c) => option(c, words(c))));
        wrap.append(select);
      }
    } else if (spec.kind === "scores") {
      label.removeAttribute("for");
      wrap.append(node("p", { class: "meta" }, `Left empty: ${spec.unset}.`));
      names.forEach((name, seat) => {
        const input = node("input", { id: seat ? `${id}-${seat}` : id, type: "number", inputmode: "numeric", min: spec.low, max: spec.high, "aria-label": `${spec.label}: ${name}`, placeholder: name });
        wrap.append(input);
      });
    } else {
      const input = node("input", { id, type: "number", inputmode: "numeric", min: spec.low, max: spec.high, placeholder: spec.unset });
      wrap.append(input);
    }
    return wrap;
  }

  function showOptions() {
    const game = selectedGame();
    const variant = $("start-variant").value;
    const specs = game ? (game.options || []).filter((o) => !o.variants.length || o.variants.includes(variant)) : [];
    $("start-options-box").hidden = specs.length === 0;
    const names = startNames();
    const kept = new Map([...$("start-options").querySelectorAll("select, input")].map((i) => [i.id, i.value]));
    $("start-options").replaceChildren(...specs.map((spec) => optionField(spec, names)));
    for (const input of $("start-options").querySelectorAll("select, input")) {
      if (kept.has(input.id) && [...(input.options || [{ value: kept.get(input.id) }])].some((o) => o.value === kept.get(input.id))) input.value = kept.get(input.id);
    }
  }

  function optionsFromForm() {
    const options = {};
    for (const wrap of $("start-options").querySelectorAll("[data-option]")) {
      const kind = wrap.dataset.kind;
      const values = [...wrap.querySelectorAll("select, input")].map((i) => i.value.trim());
      if (values.every((v) => v === "")) continue;
      if (kind === "seat" || kind === "number") options[wrap.dataset.option] = Number(values[0]);
      else if (kind === "choice") options[wrap.dataset.option] = values[0];
      else if (kind === "choices") options[wrap.dataset.option] = values;
      else options[wrap.dataset.option] = values.map((v) => (v === "" ? 0 : Number(v)));
    }
    return options;
  }

  function addPlayer() {
    const list = $("start-players");
    const game = selectedGame();
    if (game && list.children.length >= game.max_players) return say(`${game.title} is for at most ${game.max_players} players.`, "error", $("add-player"));
    const seat = list.children.length;
    const li = node("li");
    const input = node("input", { id: `player-${seat}`, required: "", autocomplete: "off" });
    input.addEventListener("input", showOptions);  // the options name the players as they are typed
    // Where the player sits at the table (the mat's seat zones); "usual" lets the mat's plan decide.
    const zone = node("select", { class: "zone", "aria-label": `Place at the table of the player in seat ${seat + 1}` });
    zone.append(option("", "usual place"), ...[1, 2, 3, 4, 5, 6].map((n) => option(`seat-${n}`, `at seat ${n} of the mat`)));
    li.append(node("label", { for: input.id }, `Seat ${seat + 1}`), input, zone);
    list.append(li);
    showOptions();
  }

  async function startGame(event) {
    event.preventDefault();
    const button = event.submitter || $("start-form").querySelector("button[type=submit]");
    const players = [...$("start-players").querySelectorAll("input")].map((i) => i.value.trim());
    const zones = [...$("start-players").querySelectorAll("select.zone")].map((z) => z.value);
    const seats = zones.every((z) => z) ? zones : [];
    if (!seats.length && zones.some((z) => z)) return say("Choose a place for every player, or leave them all on their usual place.", "error", button);
    const snap = window.tableside.current() || {};
    if (snap.status === "playing" && !window.confirm(`Game ${snap.game_id} is still being played. End it and start a new one?`)) return;
    try {
      const data = await post("start", {
        game: $("start-game").value, variant: $("start-variant").value, players, options: optionsFromForm(),
        full_information: $("start-full").checked, seats,
      });
      say(`Game ${data.game_id} started.`, "ok", button);
    } catch (err) {
      say(err.message, "error", button);
    }
  }

  // --- the card picker ------------------------------------------------------------------------------------
  function faceUrl(face) {
    return `/cards/${encodeURIComponent(picks.deck)}/${encodeURIComponent(face)}.svg`;
  }

  // Tap a face to choose it; a list of cards (Squirrels' plays) takes each tap as one more card, and a tap on
  // a chosen card takes it back. The value goes to a hidden input the form reads like any other.
  function cardPicker(name, type, input, actionType) {
    const list = type.startsWith("list[");
    const allowed = picks && picks.known && picks.allowed && picks.allowed[actionType] && picks.allowed[actionType][name];
    const faces = (picks ? picks.faces : []).filter((f) => !allowed || allowed.includes(f.id));
    const box = node("div", { class: "picker", role: "group", "aria-label": FIELD_WORDS[name] || words(name) });
    const chosen = node("div", { class: "cards chosen", "aria-live": "polite" });
    const grid = node("div", { class: "cards grid" });
    const show = () => {
      const ids = input.value ? input.value.split(",").map((s) => s.trim()).filter(Boolean) : [];
      chosen.replaceChildren(...(ids.length ? ids.map((id, i) => {
        const button = node("button", { type: "button", class: "face", "aria-label": `Take back ${id}` });
        button.append(node("img", { src: faceUrl(id), alt: id, class: "card", width: "63", height: "88" }));
        button.addEventListener("click", () => {
          ids.splice(i, 1);
          input.value = ids.join(", ");
          show();
        });
        return button;
      }) : [node("span", { class: "meta" }, list ? "No cards yet: tap them below." : "No card yet: tap one below.")]));
      for (const button of grid.children) button.setAttribute("aria-pressed", String(ids.includes(button.dataset.face)));
    };
    for (const face of faces) {
      const button = node("button", { type: "button", class: "face", "data-face": face.id, "aria-label": face.id, "aria-pressed": "false" });
      button.append(node("img", { src: faceUrl(face.id), alt: "", class: "card", width: "63", height: "88", loading: "lazy" }));
      button.addEventListener("click", () => {
        input.value = list && input.value ? `${input.value}, ${face.id}` : face.id;
        show();
      });
      grid.append(button);
    }
    if (picks && picks.known && allowed && faces.length === 0) grid.append(node("p", { class: "meta" }, "The rules allow no card here now."));
    input.addEventListener("change", show);
    box.append(chosen, grid);
    show();
    return box;
  }

  // --- entering, correcting and overruling moves ------------------------------------------------------------
  function currentActions() {
    const snap = window.tableside.current();
    return (snap && snap.status === "playing" && snap.actions) || [];
  }

  function toMove() {
    if (picks && picks.to_move && picks.to_move.length) return picks.to_move[0];
    const rows = ((window.tableside.current() || {}).scoreboard || {}).rows || [];
    const active = rows.find((row) => row.active);
    return active ? active.seat : 0;
  }

  function fieldInput(name, type, actionType) {
    const id = `field-${name}`;
    const wrap = node("div", { class: "stack" });
    const label = node("label", { for: id }, FIELD_WORDS[name] || words(name));
    const optional = type.endsWith("?");
    const base = type.replace("?", "");
    const names = players();
    let input;
    let extra = null;
    if (base === "seat" && names.length) {
      input = node("select");
      input.append(...seatOptions(names, optional ? NOBODY[name] || "nobody" : ""));
      if (name === "player") input.value = String(toMove());
    } else if (base === "int" && PLACES[name]) {
      input = node("select");
      if (optional) input.append(option("", "from the hand"));
      for (let i = 0; i < PLACES[name]; i++) input.append(option(i, `${words(name)} ${i + 1}${i ? "" : " (left)"}`));
    } else if (picks && picks.deck && picks.card_fields.includes(name)) {
      input = node("input", { type: "hidden" });
      extra = cardPicker(name, base, input, actionType);
      label.removeAttribute("for");
    } else {
      input = node("input");
      if (base === "bool") input.type = "checkbox";
      else if (["int", "float", "seat"].includes(base)) {
        input.type = "number";
        input.step = base === "float" ? "any" : "1";
        input.inputMode = base === "float" ? "decimal" : "numeric";
      } else if (base.startsWith("list[")) label.textContent += " (separate with commas)";
    }
    input.id = id;
    input.name = name;
    input.dataset.type = type;
    const free = base.startsWith("list[") || input.type === "hidden" || name === "reason";
    if (!optional && base !== "bool" && !free) input.required = true;
    wrap.append(label, input);
    if (extra) wrap.append(extra);
    if (HIDDEN(name)) wrap.hidden = true;
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
    if (raw === "" && input.type === "hidden") return undefined;  // no card tapped: the rules say what is missing
    return ["int", "float", "seat"].includes(base) ? Number(raw) : raw;
  }

  function showActionFields() {
    const schema = currentActions().find((a) => a.type === $("action-type").value);
    $("action-doc").textContent = schema ? plain(schema.doc) : "";
    $("action-fields").replaceChildren(...(schema ? Object.entries(schema.fields).map(([n, t]) => fieldInput(n, t, schema.type)) : []));
  }

  function refreshActionTypes() {
    const actions = currentActions();
    const snap = window.tableside.current() || {};
    $("action-prompt").textContent = (snap.scoreboard && snap.scoreboard.prompt) || "";
    // Where the rules list the legal moves, the moves possible now come first.
    const legal = picks && picks.known ? picks.types : [];
    const ordered = [...actions.filter((a) => legal.includes(a.type)), ...actions.filter((a) => !legal.includes(a.type))];
    const key = `${snap.game_id}:${snap.seq}:${ordered.map((a) => a.type).join(",")}:${picks ? picks.seq : ""}`;
    if (key === actionsKey || overruling) return;  // keep what the referee is entering
    actionsKey = key;
    $("action-form").hidden = actions.length === 0;
    const chosen = $("action-type").value;
    $("action-type").replaceChildren(...ordered.map((a) => option(a.type, words(a.type))));
    if (ordered.some((a) => a.type === chosen) && !legal.length) $("action-type").value = chosen;
    showActionFields();
  }

  async function refreshChoices() {
    if ($("controls").hidden) return;
    const snap = window.tableside.current() || {};
    try {
      const response = await fetch("/api/referee/choices", { cache: "no-store" });
      const data = response.ok ? await response.json() : null;
      picks = data && data.playing ? { ...data, seq: snap.seq } : null;
    } catch (err) {
      picks = null;  // the form still works without the picker's filter
    }
    refreshActionTypes();
    await refreshOverrulable().catch(() => {});  // the server went away: the next snapshot tries again
  }

  function actionFromForm() {
    const action = { type: $("action-type").value };
    for (const input of $("action-fields").querySelectorAll("input, select")) {
      const value = parseValue(input);
      if (value !== undefined) action[input.name] = value;
    }
    return action;
  }

  async function submitAction(event) {
    event.preventDefault();
    const button = event.submitter;
    const mode = button ? button.value : "action";
    try {
      if (mode === "overrule") {
        await overrule(actionFromForm(), button);
        return;
      }
      await post(mode, actionFromForm());
      say(mode === "correct" ? "The last move was replaced." : "Move entered.", "ok", button);
    } catch (err) {
      say(err.message, "error", button);
    }
  }

  function fillForm(payload) {
    $("action-type").value = payload.type;
    showActionFields();
    for (const [name, value] of Object.entries(payload)) {
      const input = $(`field-${name}`);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = Boolean(value);
      else input.value = Array.isArray(value) ? value.join(", ") : value === null ? "" : String(value);
      input.dispatchEvent(new Event("change"));
    }
  }

  async function gameLog() {
    const snap = window.tableside.current();
    if (!snap || !snap.game_id) return null;
    const response = await fetch(`/api/history/${snap.game_id}`, { cache: "no-store" });
    return response.ok ? response.json() : null;
  }

  async function loadLast(event) {
    const button = event.currentTarget;
    const log = await gameLog();
    const last = log && log.events.filter((e) => e.kind === "action" && !e.revoked && e.source !== "chance").pop();
    if (!last) return say("There is no move to correct yet.", "error", button);
    endOverrule();
    fillForm(last.payload);
    say(`Loaded “${last.text}”. Change it, then choose “Replace the last move with this”.`, "ok", button);
  }

  // Overruling: any earlier decision, picked from the game's moves; the rules replay what followed.
  async function refreshOverrulable() {
    const log = await gameLog();
    const moves = log ? log.events.filter((e) => e.kind === "action" && !e.revoked && e.source !== "chance") : [];
    $("overrule-form").hidden = moves.length === 0;
    const chosen = $("overrule-move").value;
    $("overrule-move").replaceChildren(...moves.reverse().map((e) => option(e.seq, `#${e.seq} ${e.text}`)));
    if (moves.some((e) => String(e.seq) === chosen)) $("overrule-move").value = chosen;
    $("overrule-move").moves = moves;
    // Sent here by the history's "Overrule" link: that move goes into the form at once.
    const wanted = new URLSearchParams(location.search).get("overrule");
    if (wanted && !overruleAsked && moves.some((e) => String(e.seq) === wanted)) {
      overruleAsked = true;
      $("overrule-move").value = wanted;
      loadOverrule($("overrule-form").querySelector("button"));
    }
  }

  let overruleAsked = false;

  function beginOverrule(event) {
    event.preventDefault();
    loadOverrule(event.submitter);
  }

  function loadOverrule(button) {
    const seq = Number($("overrule-move").value);
    const move = ($("overrule-move").moves || []).find((e) => e.seq === seq);
    if (!move) return say("Pick a move to overrule.", "error", button);
    overruling = { seq, text: move.text };
    fillForm(move.payload);
    $("overrule-banner").textContent = `Overruling #${seq}: “${move.text}”. Change it, then put it in its place.`;
    for (const id of ["overrule-banner", "overrule-button", "overrule-cancel"]) $(id).hidden = false;
    $("enter-button").hidden = true;
    say(`Move #${seq} is in the form above.`, "ok", button);
    $("action-form").scrollIntoView({ block: "start" });
  }

  function endOverrule() {
    overruling = null;
    for (const id of ["overrule-banner", "overrule-button", "overrule-cancel"]) $(id).hidden = true;
    $("enter-button").hidden = false;
    actionsKey = "";
  }

  async function overrule(action, button) {
    const body = { seq: overruling.seq, action, confirm: false };
    try {
      await post("overrule", body);
    } catch (err) {
      if (!err.data || err.data.error !== "overrule-undoes") throw err;
      if (!window.confirm(err.message)) return say("Nothing was changed.", "ok", button);
      await post("overrule", { ...body, confirm: true });
    }
    const seq = overruling.seq;
    endOverrule();
    refreshChoices();
    say(`Move #${seq} was overruled; what followed was replayed.`, "ok", button);
  }

  // --- wiring ---------------------------------------------------------------------------------------------
  async function simple(path, body, done, button) {
    try {
      await post(path, body);
      say(done, "ok", button);
    } catch (err) {
      say(err.message, "error", button);
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
    showOptions();
  });
  $("start-form").addEventListener("submit", startGame);
  $("action-type").addEventListener("change", showActionFields);
  $("action-form").addEventListener("submit", submitAction);
  $("load-last").addEventListener("click", loadLast);
  $("overrule-form").addEventListener("submit", beginOverrule);
  $("overrule-cancel").addEventListener("click", (event) => {
    endOverrule();
    refreshActionTypes();
    say("The overrule was cancelled.", "ok", event.currentTarget);
  });
  $("undo-button").addEventListener("click", (event) => simple("undo", {}, "The last move was undone.", event.currentTarget));
  $("end-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const button = event.submitter;
    if (!window.confirm("End this game now? Undo can reopen it.")) return say("The game goes on.", "ok", button);
    simple("end", { reason: $("end-reason").value }, "The game was ended.", button);
  });
  let lastSeen = "";
  document.addEventListener("tableside:snapshot", (event) => {
    const snap = event.detail;
    const key = `${snap.game_id}:${snap.seq}:${snap.status}`;
    if (key === lastSeen) return;
    lastSeen = key;
    refreshChoices();
  });
  init().catch((err) => say(`Could not load the referee controls: ${err.message}`, "error"));
})();
