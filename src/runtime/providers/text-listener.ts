/** An error thrown by the caller's `onTextDelta`: carried out of the stream untouched, never re-labelled. */
export class TextListenerFailure {
  constructor(readonly error: unknown) {}
}

/** The caller's `onTextDelta`, empty pieces skipped, its own failures marked as `TextListenerFailure`. */
export function guardTextListener(listener: (delta: string) => void): (delta: string) => void {
  return (delta) => {
    if (delta.length === 0) return;
    try {
      listener(delta);
    } catch (error) {
      throw new TextListenerFailure(error);
    }
  };
}
