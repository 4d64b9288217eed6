/**
 * The one way the widget makes DOM: elements with attributes, and children
 * that are nodes or strings. A string always becomes a Text node, so review
 * text, titles and names can never be parsed as HTML (the widget has no
 * innerHTML anywhere; test/widget checks the bundle for it).
 */
export type Child = Node | string | false | null | undefined;

export function h(tag: string, attributes: Record<string, string | undefined> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
  for (const child of children)
    if (child || child === '') element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return element;
}
