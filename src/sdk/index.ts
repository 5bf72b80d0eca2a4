/**
 * The game SDK `Client` (`platformpp-web/sdk`), built to `dist/lib/sdk.js`.
 */
export {};
