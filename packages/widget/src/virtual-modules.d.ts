/** The frame worker's built code (vite.config.ts, `frameWorkerSource`). */
declare module 'virtual:frame-worker' {
  const source: string;
  export default source;
}
