/**
 * While a run is in flight, Ctrl-C aborts the loop (the provider request and any running command)
 * so the session is flushed before exit; a second Ctrl-C exits at once. Returns the undo.
 */
export function takeOverInterrupt(
  controller: AbortController,
  stderr: NodeJS.WritableStream,
  exitCode: number,
): () => void {
  // main.ts exits on SIGINT straight away; set it aside while the loop can still finish cleanly.
  const previous = process.listeners('SIGINT');
  process.removeAllListeners('SIGINT');
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(exitCode);
    stderr.write('\ninterrupting (Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  return () => {
    process.off('SIGINT', onInterrupt);
    for (const listener of previous) process.on('SIGINT', listener as () => void);
  };
}
