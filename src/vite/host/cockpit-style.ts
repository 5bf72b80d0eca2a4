/**
 * The host page's style sheet: the header, the stage of players in their device frames, and
 * the cockpit's panels beside it (below it on a narrow window). Colours keep 4.5:1 contrast.
 */

/** The style sheet's text, put in the page's `<head>` once. */
export const COCKPIT_CSS = `
:root { color-scheme: light; font: 14px/1.4 system-ui, sans-serif; }
body { margin: 0; display: flex; flex-direction: column; height: 100vh; background: #f2f3f5; color: #1e1f22; }
header { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; align-items: center; padding: 0.5rem 1rem; background: #fff; border-bottom: 1px solid #dcdde1; }
header nav a { margin-right: 0.5rem; color: #3c45a5; }
header nav a[aria-current='page'] { font-weight: 600; color: inherit; text-decoration: none; }
code { font-size: 12px; background: #ebedef; padding: 0 0.25rem; border-radius: 3px; }
[role='alert'] { flex-basis: 100%; margin: 0; color: #8b0000; }
button, input, select { font: inherit; }
.layout { flex: 1; display: flex; min-height: 0; }
.layout > main { flex: 1; min-width: 0; display: flex; }
pp-platform { flex: 1; display: flex; flex-direction: column; min-height: 0; }
.stage { flex: 1; display: flex; gap: 0.75rem; padding: 0.75rem; min-height: 0; overflow: auto; align-items: stretch; }
.player { flex: 1 1 0; display: flex; flex-direction: column; min-width: 0; }
.player h2 { font-size: 13px; margin: 0 0 0.25rem; }
.device-screen { flex: 1; display: flex; min-height: 0; background: #fff; }
.device-screen:not([data-device='desktop']) { flex: none; border: 10px solid #1e1f22; border-radius: 24px; overflow: hidden; align-self: flex-start; }
pp-activity-frame { flex: 1; min-height: 0; }
.cockpit { width: 440px; flex: none; overflow: auto; background: #fff; border-left: 1px solid #dcdde1; }
.cockpit details { border-bottom: 1px solid #dcdde1; }
.cockpit summary { padding: 0.5rem 0.75rem; cursor: pointer; }
.cockpit summary h2 { display: inline; font-size: 14px; margin: 0; }
.cockpit .panel { padding: 0 0.75rem 0.75rem; display: flex; flex-direction: column; gap: 0.5rem; }
.cockpit fieldset { border: 1px solid #dcdde1; border-radius: 4px; display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; }
.cockpit h3 { font-size: 13px; margin: 0.25rem 0 0; }
.cockpit .row, .cockpit .toolbar { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.cockpit ul.plain, .cockpit ul.users { margin: 0; padding-left: 1.1rem; }
.rpc-log { list-style: none; margin: 0; padding: 0; max-height: 50vh; overflow: auto; font: 12px/1.4 ui-monospace, monospace; border: 1px solid #dcdde1; }
.rpc-log li { border-bottom: 1px solid #ebedef; padding: 0.125rem 0.25rem; }
.rpc-log pre { white-space: pre-wrap; word-break: break-all; margin: 0.25rem 0; }
.rpc-log .bad { color: #8b0000; font-weight: 600; }
.rpc-log .ok, .rpc-log .time, .rpc-log .n { color: #4e5058; }
.count { margin: 0; color: #4e5058; }
@media (max-width: 900px) {
  .layout { flex-direction: column; overflow: auto; }
  .cockpit { width: auto; border-left: 0; border-top: 1px solid #dcdde1; overflow: visible; }
  .layout > main { min-height: 70vh; }
}
`;
