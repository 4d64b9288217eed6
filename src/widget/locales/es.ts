/** Spanish: las palabras del widget. */
import type { Labels } from './labels.ts';

const es: Labels = {
  customerReviews: 'Opiniones de clientes',
  reviewsOf: (name) => `Opiniones de clientes de ${name}`,
  loading: 'Cargando opiniones de clientes…',
  reviews: (count, n) => `${n} ${count === 1 ? 'opinión verificada' : 'opiniones verificadas'}`,
  rated: (value) => `Valoración de ${value} sobre 5`,
  stars: (value) => `${value} de 5 estrellas`,
  summary: (value, n) => `★ ${value} de ${n} opiniones verificadas`,
  newest: 'Opiniones más recientes',
  fullReview: 'Leer opinión',
  by: (name) => ` de ${name}`,
  empty: 'Aún no hay opiniones que mostrar.',
  seeAll: (n) => `Ver las ${n} opiniones`,
  reviewUs: (platform) => `Opine sobre nosotros en ${platform}`,
  fallback: 'Lea las opiniones verificadas de nuestros clientes',
  aboutReviews: 'Cómo se verifican las opiniones',
  carousel: 'Opiniones más recientes, una a una',
  slide: (i, n) => `${i} de ${n}`,
  previous: 'Opinión anterior',
  next: 'Opinión siguiente',
  pause: 'Detener la rotación automática',
  play: 'Iniciar la rotación automática',
};
export default es;
