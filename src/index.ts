/**
 * The package's main entry point (`platformpp-web`), built to `dist/lib/index.js`.
 */
export {};
