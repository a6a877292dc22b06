// Writes each SVG component of a compiled React bundle (React.createElement calls) as a plain .svg file.
// Usage: node jsx_svg.mjs BUNDLE.js OUT_DIR. No React needed: createElement here builds markup strings.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";

const [bundle, out] = process.argv.slice(2);
const KEEP = new Set(["viewBox", "preserveAspectRatio", "patternUnits", "gradientUnits", "gradientTransform"]);
const attr = (k) =>
  k === "className" ? "class" : k === "xlinkHref" ? "xlink:href" : k === "xmlnsXlink" ? "xmlns:xlink"
  : KEEP.has(k) ? k : k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
const esc = (v) => String(v).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
class Markup {
  constructor(text) { this.text = text; }
}
const React = {
  createElement(tag, props, ...children) {
    const attrs = Object.entries(props || {})
      .filter(([k, v]) => v !== undefined && v !== null && !k.startsWith("aria-"))
      .map(([k, v]) => ` ${attr(k)}="${esc(v)}"`).join("");
    const inner = children.flat().filter((c) => c !== null && c !== undefined && c !== false)
      .map((c) => (c instanceof Markup ? c.text : esc(c))).join("");
    return new Markup(`<${tag}${attrs}>${inner}</${tag}>`);
  },
};
let source = readFileSync(bundle, "utf8").replace(/^import .*$/gm, "");
source = source.replace(/export\s*\{([^}]*)\};?/, (_, names) =>
  "return {" + names.split(",").map((p) => p.trim().split(/\s+as\s+/)).map(([a, b]) => `${b}: ${a}`).join(",") + "};");
const components = new Function("React", "_extends", source)(React, Object.assign);
mkdirSync(out, { recursive: true });
for (const [name, component] of Object.entries(components)) {
  let svg = component({}).text;
  if (!svg.includes("xmlns=")) svg = svg.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"');
  if (!svg.includes("xmlns:xlink")) svg = svg.replace("<svg", '<svg xmlns:xlink="http://www.w3.org/1999/xlink"');
  writeFileSync(`${out}/${name}.svg`, svg);
}
console.log(Object.keys(components).length);
