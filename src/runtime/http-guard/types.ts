/** Why a request was refused before it reached a route. */
export type GuardRefusalCode =
  | "forbidden_host"
  | "forbidden_origin"
  | "invalid_api_key"
  | "unsupported_media_type";

/** A refused request: the status to answer, a stable code, a message for the reader, and extra headers. */
export type GuardRefusal = {
  status: 401 | 403 | 415;
  code: GuardRefusalCode;
  message: string;
  /** Headers the refusal must carry (`WWW-Authenticate` on a 401). */
  headers?: Readonly<Record<string, string>>;
};

/** A check's answer: `undefined` lets the request through. */
export type GuardVerdict = GuardRefusal | undefined;
