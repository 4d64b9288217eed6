/**
 * The carousel layout after the WAI-ARIA Authoring Practices' auto-rotating
 * carousel: a visible rotation button first, previous and next buttons, the
 * slides as groups named "n of N", arrow keys while focus is inside.
 * Rotation stops while the pointer is over the carousel or focus is in it,
 * and for good when the visitor presses the button or prefers reduced motion;
 * while it is stopped the slides are a polite live region (off while
 * rotating, so a screen reader is not talked over every few seconds).
 */
import { h } from './dom.ts';
import type { Labels } from './locales/labels.ts';

export const ROTATE_MS = 6000;

export function startCarousel(items: HTMLElement[], labels: Labels): { controls: HTMLElement; slides: HTMLElement } {
  const total = String(items.length);
  const slides = h('div', { class: 'reviews slides', part: 'list' });
  items.forEach((item, i) => {
    item.setAttribute('role', 'group');
    item.setAttribute('aria-roledescription', 'slide');
    item.setAttribute('aria-label', labels.slide(String(i + 1), total));
    item.hidden = i > 0;
    slides.append(item);
  });
  // Icons drawn in CSS (styles.ts): a pause or play glyph is missing from many fonts.
  const button = (attributes: { 'aria-label': string; part: string }, icon: string) =>
    h('button', { type: 'button', class: 'ctl', ...attributes }, h('span', { class: icon, 'aria-hidden': 'true' }));
  const rotation = button({ 'aria-label': labels.pause, part: 'carousel-rotation' }, 'i-pause');
  const previous = button({ 'aria-label': labels.previous, part: 'carousel-previous' }, 'i-prev');
  const next = button({ 'aria-label': labels.next, part: 'carousel-next' }, 'i-next');
  const controls = h('div', { class: 'controls' }, rotation, previous, next);

  let current = 0;
  let stopped = matchMedia('(prefers-reduced-motion: reduce)').matches;
  let hovered = false;
  let focused = false;
  const show = (index: number) => {
    items[current]!.hidden = true;
    current = (index + items.length) % items.length;
    items[current]!.hidden = false;
  };
  const update = () => {
    const rotating = !stopped && !hovered && !focused && items.length > 1;
    slides.setAttribute('aria-live', rotating ? 'off' : 'polite');
    rotation.setAttribute('aria-label', stopped ? labels.play : labels.pause);
    rotation.firstElementChild!.className = stopped ? 'i-play' : 'i-pause';
    return rotating;
  };
  update();
  const timer = setInterval(() => {
    // Replaced by a new render or removed from the page: nothing left to rotate.
    if (!controls.isConnected) return clearInterval(timer);
    if (update()) show(current + 1);
  }, ROTATE_MS);

  rotation.addEventListener('click', () => {
    stopped = !stopped;
    update();
  });
  previous.addEventListener('click', () => show(current - 1));
  next.addEventListener('click', () => show(current + 1));
  // The whole carousel (controls and slides) is the area that stops rotation: listen on their parent once attached.
  queueMicrotask(() => {
    const area = controls.parentElement;
    if (!area) return;
    area.addEventListener('mouseenter', () => ((hovered = true), update()));
    area.addEventListener('mouseleave', () => ((hovered = false), update()));
    area.addEventListener('focusin', () => ((focused = true), update()));
    area.addEventListener('focusout', (event) => {
      if (!area.contains(event.relatedTarget as Node | null)) ((focused = false), update());
    });
    area.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      event.preventDefault();
      show(current + (event.key === 'ArrowRight' ? 1 : -1));
    });
  });
  return { controls, slides };
}
