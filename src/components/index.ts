/**
 * The lit elements (`platformpp-web/components`), built to `dist/lib/components.js`.
 */
export {};
