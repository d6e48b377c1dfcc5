/**
 * The one way the views give an element its own styles (a spacer's height, a terminal colour):
 * through the CSSOM (`element.style.setProperty`), never a `style` attribute. A page whose
 * Content Security Policy has no `'unsafe-inline'` for styles (the demo's `default-src 'self'`)
 * blocks every `style` attribute, reports each one, and loses the style (CSP Level 3, "Should
 * element's inline type behavior be blocked?"); the CSSOM is not subject to it. Lit's own
 * `styleMap` writes the attribute on its first render, so the views use this directive instead.
 * @module
 */
import { noChange } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

/** CSS properties by their CSS names (`background-color`); undefined or null removes one. */
export type StyleProps = Readonly<Record<string, string | number | undefined | null>>;

class StylePropsDirective extends Directive {
  /** The values this binding set last, so only changes reach the element. */
  readonly #set = new Map<string, string>();

  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new TypeError('styleProps binds to an element: <div ${styleProps(…)}>');
  }

  render(props: StyleProps): typeof noChange {
    void props;
    return noChange;
  }

  override update(part: ElementPart, [props]: [StyleProps]): typeof noChange {
    const style = (part.element as HTMLElement | SVGElement).style;
    for (const name of this.#set.keys()) {
      if (props[name] === undefined || props[name] === null) {
        style.removeProperty(name);
        this.#set.delete(name);
      }
    }
    for (const [name, raw] of Object.entries(props)) {
      if (raw === undefined || raw === null) continue;
      const value = String(raw);
      if (this.#set.get(name) === value) continue;
      style.setProperty(name, value);
      this.#set.set(name, value);
    }
    return noChange;
  }
}

/**
 * Sets an element's styles through the CSSOM (an element binding).
 * @example
 * html`<div class="spacer" ${styleProps({ height: `${before}px` })}></div>`;
 */
export const styleProps = directive(StylePropsDirective);
