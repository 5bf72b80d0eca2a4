/**
 * The SDK an activity imports inside its iframe (`platformpp-web/activity`), built to `dist/lib/activity.js`.
 */
export {};
