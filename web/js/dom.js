// Building DOM and SVG elements, for the pages and every board module.

const SVG_NS = 'http://www.w3.org/2000/svg';

// h('button', {class: 'x', onclick: f, style: {borderColor: c}}, 'text', child, ...)
// The pages run under a Content-Security-Policy without 'unsafe-inline': a `style` attribute or an inline
// `on…` handler string would be refused. So `style` is an object set through the CSSOM (el.style, which
// the policy allows), and `on…` takes only functions.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) {
      if (typeof v !== 'function') throw new TypeError(`h(): ${k} must be a function (inline handlers break the CSP)`);
      el.addEventListener(k.slice(2), v);
    } else if (k === 'style') {
      if (typeof v !== 'object') throw new TypeError('h(): style must be an object (a style attribute breaks the CSP)');
      for (const [p, x] of Object.entries(v)) {
        if (x === undefined || x === null || x === false) continue;
        if (p.includes('-')) el.style.setProperty(p, String(x)); else el.style[p] = String(x);
      }
    } else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// svg('circle', {cx: 1, cy: 1, r: 0.4}, child, 'text', ...): attributes left null/undefined/false are omitted.
// No `style` attribute (the CSP refuses it): use a class, a presentation attribute or el.style.
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'style' || k.startsWith('on')) throw new TypeError(`svg(): no ${k} attribute (it breaks the CSP)`);
    el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}
