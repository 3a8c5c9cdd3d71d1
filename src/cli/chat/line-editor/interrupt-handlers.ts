export interface InterruptHandlers {
  add(handler: () => void): () => void;
  fire(): void;
  readonly count: number;
}

/** The onInterrupt subscribers; each unsubscribe removes its own subscription once. */
export function createInterruptHandlers(
  onCountChange?: (count: number) => void,
): InterruptHandlers {
  const handlers: (() => void)[] = [];
  return {
    add(handler) {
      const entry = () => handler();
      handlers.push(entry);
      onCountChange?.(handlers.length);
      return () => {
        const index = handlers.indexOf(entry);
        if (index === -1) return;
        handlers.splice(index, 1);
        onCountChange?.(handlers.length);
      };
    },
    fire() {
      for (const handler of [...handlers]) handler();
    },
    get count() {
      return handlers.length;
    },
  };
}
