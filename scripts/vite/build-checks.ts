/**
 * The bundler's checks every build of this project runs with. Plugin timings are left to whoever
 * profiles the build: on a busy machine they print a report of Vite's own plugins on every
 * build, which says nothing about the project and nothing a reader can act on.
 */

/** Rolldown `checks` for the site, the library and the service worker builds. */
export const BUILD_CHECKS = { bundlerTimings: false };
