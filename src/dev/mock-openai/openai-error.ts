/** A request the mock cannot answer: the message and the parameter at fault. */
export class MockRequestError extends Error {
  constructor(
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = "MockRequestError";
  }
}
