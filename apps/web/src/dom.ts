/** What an element may hold: elements, and strings, which become text nodes (never parsed as HTML). */
export type Child = Node | string | undefined | false;

/** Attribute values; `true` writes an empty attribute, `false` and `undefined` none. */
export type Attributes = Readonly<Record<string, string | boolean | undefined>>;

/**
 * An element with its attributes and children. Every piece of text goes in through `append`,
 * as a text node: a plant named `<img src=x onerror=alert(1)>` shows as those characters.
 * The page's Content-Security-Policy requires Trusted Types, so an HTML sink would throw.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  element.append(...children.filter((child): child is Node | string => child !== undefined && child !== false));
  return element;
}

/** A heading the view moves the focus to, so that a screen reader announces where the person is. */
export function viewHeading(text: string): HTMLHeadingElement {
  return h('h1', { tabindex: '-1' }, text);
}
