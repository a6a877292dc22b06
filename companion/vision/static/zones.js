// Drawing the table zones on the camera's picture. The canvas has the picture's own size and is only scaled by
// CSS, so every point is kept in picture pixels: what is posted is exactly what the recogniser will see.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const canvas = $("frame");
  const ctx = canvas.getContext("2d");
  const names = JSON.parse(canvas.dataset.names);
  const zones = Object.fromEntries(names.map((name) => [name, []]));
  const picture = new Image();
  let current = 0;

  function say(text, kind) {
    $("status").textContent = text;
    $("status").dataset.kind = kind;
  }

  function outline(name, active) {
    const points = zones[name];
    const px = canvas.width / canvas.getBoundingClientRect().width || 1; // one CSS pixel, in picture pixels
    ctx.strokeStyle = ctx.fillStyle = active ? "#ffd400" : "#00e5ff";
    ctx.lineWidth = 3 * px;
    ctx.beginPath();
    points.forEach(([x, y], k) => (k ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    if (!active || points.length > 2) ctx.closePath();
    ctx.stroke();
    for (const [x, y] of points) {
      ctx.beginPath();
      ctx.arc(x, y, 5 * px, 0, 2 * Math.PI);
      ctx.fill();
    }
    const cx = points.reduce((sum, p) => sum + p[0], 0) / points.length;
    const cy = points.reduce((sum, p) => sum + p[1], 0) / points.length;
    ctx.font = `600 ${Math.round(18 * px)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.lineWidth = 4 * px;
    ctx.strokeStyle = "#000";
    ctx.strokeText(name, cx, cy);
    ctx.fillText(name, cx, cy);
  }

  function draw() {
    ctx.drawImage(picture, 0, 0);
    names.forEach((name, i) => zones[name].length && outline(name, i === current));
    $("zone-name").textContent = names[current];
    $("corners").textContent = zones[names[current]].length;
    for (const button of document.querySelectorAll("#zones button")) {
      const count = zones[button.dataset.zone].length;
      button.textContent = count ? `${button.dataset.zone} (${count})` : button.dataset.zone;
      button.setAttribute("aria-pressed", String(button.dataset.zone === names[current]));
    }
  }

  canvas.addEventListener("click", (event) => {
    const box = canvas.getBoundingClientRect();
    const x = Math.min(canvas.width, Math.max(0, ((event.clientX - box.left) * canvas.width) / box.width));
    const y = Math.min(canvas.height, Math.max(0, ((event.clientY - box.top) * canvas.height) / box.height));
    zones[names[current]].push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
    draw();
  });
  $("undo").addEventListener("click", () => { zones[names[current]].pop(); draw(); });
  $("clear").addEventListener("click", () => { zones[names[current]] = []; draw(); });
  $("next").addEventListener("click", () => { current = (current + 1) % names.length; draw(); });
  for (const button of document.querySelectorAll("#zones button")) {
    button.addEventListener("click", () => { current = names.indexOf(button.dataset.zone); draw(); });
  }

  $("save").addEventListener("click", async () => {
    const drawn = names.filter((name) => zones[name].length).map((name) => [name, zones[name].flat()]);
    say("Saving…", "ok");
    try {
      const response = await fetch("zones", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ zones: Object.fromEntries(drawn) }),
      });
      const data = await response.json().catch(() => ({ message: `The server answered ${response.status}.` }));
      say(data.message, response.ok ? "ok" : "bad");
      if (response.ok) document.querySelectorAll("button").forEach((button) => { button.disabled = true; });
    } catch {
      say("No answer: the command has stopped (saved already, or Ctrl-C). Run it again to draw.", "bad");
    }
  });

  picture.addEventListener("load", draw);
  picture.addEventListener("error", () => say("The picture did not load: reload the page.", "bad"));
  picture.src = "frame.jpg";
})();
