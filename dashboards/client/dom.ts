/**
 * The only way the client builds DOM: `h(tag, attrs, ...children)`. Strings become text nodes, never markup,
 * and attributes are set one by one, so a test id or message like `<img src=x onerror=…>` stays text.
 * There is no innerHTML anywhere in the client.
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

export type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    // Through CSSOM: the CSP forbids style attributes in markup, not styles set from script.
    else if (k === 'style') el.style.cssText = String(v);
    else if (k === 'href' && !/^(#|https?:)/.test(String(v)))
      continue; // no javascript: or data: links
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === 'object' ? (c as Node) : document.createTextNode(String(c)));
  }
}

export const short = (sha: string): string => sha.slice(0, 7);

export const fmtInt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Counts as integers; wall-clock and other fractional values to 4 significant digits. */
export const fmtVal = (n: number): string => (Number.isInteger(n) ? fmtInt(n) : n.toPrecision(4));

export const fmtPct = (x: number, digits = 1): string => `${(x * 100).toFixed(digits)}%`;

export const fmtS = (s: number | null): string =>
  s === null ? 'running' : s < 120 ? `${s.toFixed(1)} s` : `${(s / 60).toFixed(1)} min`;

export const fmtDate = (iso: string): string => iso.replace('T', ' ').slice(0, 16);

/** A status letter strip (history): one span per run, oldest first. */
export function strip(history: string, titles?: readonly string[]): HTMLElement {
  return h(
    'span',
    { class: 'strip', 'aria-label': `history ${history}` },
    [...history].map((c, i) =>
      h('span', { class: `h h-${c === '.' ? 'none' : c}`, title: titles?.[i] ?? c }, c),
    ),
  );
}

/** A test id linking to its history (the test search view). */
export const testLink = (id: string): HTMLElement =>
  h(
    'a',
    { href: `#/search?q=${encodeURIComponent(id)}`, class: 'test-id', title: 'history of this test' },
    h('code', {}, id),
  );
