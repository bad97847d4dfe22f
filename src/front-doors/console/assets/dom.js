// The console's DOM helpers. Untrusted text only ever becomes text nodes here: no HTML is parsed.

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(
      typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child,
    );
  }
  return node;
}

export function main() {
  return document.getElementById("main");
}

/** Replaces the page's content and sets its title; focus stays where it was (a refresh never steals it). */
export function show(title, ...content) {
  document.title = `${title} · toolsift console`;
  main().replaceChildren(el("h1", {}, title), ...content.flat().filter((node) => node !== undefined));
}

export function problem(error) {
  return el("p", { class: "message bad", role: "alert" }, String(error?.message ?? error));
}

export function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso ?? "") : date.toLocaleString();
}

export function pretty(value) {
  if (typeof value === "string") {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? "";
}

export function facts(pairs) {
  return el(
    "p",
    { class: "meta" },
    pairs
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([name, value]) => `${name} ${value}`)
      .join(" · "),
  );
}
