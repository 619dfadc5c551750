/* Small DOM helpers shared by every part of the page.
 *
 * Every value from the server goes into the page as text (textContent or a text node), never as
 * HTML, so a card name or a judge's note can never become markup.
 */

export const $ = (selector, root = document) => root.querySelector(selector);

/** Build an element: h("li", {class: "x", text: "..."}, child, ...). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export const plural = (n, one, many) => `${n} ${n === 1 ? one : many || one + "s"}`;

export function formatTime(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
}
