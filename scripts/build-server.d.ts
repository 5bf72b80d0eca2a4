/** Types of `build-server.js`. */

/** Builds the server's Worker into `outDir`; resolves with the module's path. */
export declare function buildServer(options?: { quiet?: boolean; outDir?: string }): Promise<string>;
