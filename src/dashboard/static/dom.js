// DOM helpers. Every string becomes a text node (never HTML), so model-written text cannot inject markup.

/**
 * @param {string} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, ...children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * @param {string} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(node, attrs);
  append(node, ...children);
  return node;
}

/** @param {Element} node @param {Record<string, string | number | boolean | null | undefined>} attrs */
function setAttrs(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
}

/**
 * @template {Node} T
 * @param {T} node @param {...(Node | string | number | null | undefined | false)} children
 * @returns {T}
 */
export function append(node, ...children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** @template {Node} T @param {T} node @returns {T} */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** @param {string} id @returns {HTMLElement} */
export function byId(id) {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`missing #${id}`);
  return node;
}

/** @param {number} sec */
export function duration(sec) {
  if (sec < 10) return `${sec.toFixed(1)}s`;
  if (sec < 120) return `${Math.round(sec)}s`;
  return `${(sec / 60).toFixed(1)}m`;
}

/** @param {number | null | undefined} x @param {number} [digits] */
export function num(x, digits = 2) {
  return x === null || x === undefined ? '—' : x.toFixed(digits);
}

/**
 * A model as the page shows it: its short name, the full name (a llama-server file path) on hover.
 * @param {Map<string, string>} labels @param {string} model
 */
export function modelName(labels, model) {
  return el('span', { class: 'model-name', title: model }, labels.get(model) ?? model);
}

/** The condition a run ran under (`clean`, `noisy@0.2`, `adversarial`), as a badge. @param {string} key */
export function conditionBadge(key) {
  return el(
    'span',
    { class: `badge condition ${key === 'clean' ? '' : 'warn'}`, 'data-condition': key },
    key,
  );
}
